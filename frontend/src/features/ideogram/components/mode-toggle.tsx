import { ToggleButton, ToggleButtonGroup } from '@mui/material'
import type { TrainingMode } from '../use-ideogram-trainer.ts'

type ModeToggleProps = {
  mode: TrainingMode
  onChange: (mode: TrainingMode) => void
  size?: 'small' | 'medium'
  color?: 'standard' | 'primary'
  sx?: object
}

/** Normal Training / Joined Ideogram (spec §2). */
export function ModeToggle({
  mode,
  onChange,
  size = 'medium',
  color = 'primary',
  sx,
}: ModeToggleProps) {
  return (
    <ToggleButtonGroup
      exclusive
      size={size}
      color={color}
      value={mode}
      aria-label="Training mode"
      onChange={(_event, next: TrainingMode | null) => {
        if (next) onChange(next)
      }}
      sx={sx}
    >
      <ToggleButton value="normal">Normal Training</ToggleButton>
      <ToggleButton value="joined">Joined Ideogram</ToggleButton>
    </ToggleButtonGroup>
  )
}
