import CheckIcon from '@mui/icons-material/Check'
import LockIcon from '@mui/icons-material/LockOutlined'
import { Box, Chip, Stack, ToggleButton, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { Stage } from '../../../lib/api/generated.ts'
import { openStage, stageRange, stages } from '../catalog.ts'

type StageFilterProps = {
  chosen: readonly Stage[]
  /** Visitors may use Stage 1-2 only; the other stages ask them to sign in. */
  locked: boolean
  onToggle: (stage: Stage) => void
}

/** Filter by CRV stage: one or more of Stage 1-2, 2-3 and 4-6; at least one stays chosen. */
export function StageFilter({ chosen, locked, onToggle }: StageFilterProps) {
  const { t } = useTranslation('descriptors')
  const labelId = useId()
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography
        id={labelId}
        component="legend"
        variant="subtitle2"
        color="text.secondary"
        sx={{ mb: 1 }}
      >
        {t('stageFilter.legend')}
      </Typography>
      <Stack
        direction="row"
        role="group"
        aria-labelledby={labelId}
        sx={{ flexWrap: 'wrap', gap: 1 }}
      >
        {stages.map((stage) => {
          const needsSignIn = locked && stage !== openStage
          const selected = chosen.includes(stage)
          return (
            <ToggleButton
              key={stage}
              value={stage}
              selected={selected}
              color="primary"
              size="small"
              onChange={() => onToggle(stage)}
              sx={{ gap: 1, px: 1.5, borderRadius: 5 }}
            >
              {selected ? <CheckIcon fontSize="small" aria-hidden /> : null}
              {t('stage', { range: stageRange(stage) })}
              {needsSignIn ? (
                <Chip
                  component="span"
                  size="small"
                  icon={<LockIcon />}
                  label={t('stageFilter.signInRequired')}
                  variant="outlined"
                  sx={{ height: 22, cursor: 'inherit', pointerEvents: 'none' }}
                />
              ) : null}
            </ToggleButton>
          )
        })}
      </Stack>
    </Box>
  )
}
