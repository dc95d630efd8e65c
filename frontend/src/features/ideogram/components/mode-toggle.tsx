import { ToggleButton, ToggleButtonGroup } from '@mui/material'
import { useTranslation } from 'react-i18next'
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
  const { t } = useTranslation('ideogram')
  return (
    <ToggleButtonGroup
      exclusive
      size={size}
      color={color}
      value={mode}
      aria-label={t('modes.label')}
      onChange={(_event, next: TrainingMode | null) => {
        if (next) onChange(next)
      }}
      sx={sx}
    >
      <ToggleButton value="normal">{t('modes.normal')}</ToggleButton>
      <ToggleButton value="joined">{t('modes.joined')}</ToggleButton>
    </ToggleButtonGroup>
  )
}
