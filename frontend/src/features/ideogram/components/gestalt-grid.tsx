import LockIcon from '@mui/icons-material/Lock'
import VolumeUpIcon from '@mui/icons-material/VolumeUp'
import type { MouseEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { frequencyLevels, type FrequencyLevel, type IdeogramWord } from '../gestalts.ts'

type GestaltCardProps = {
  word: IdeogramWord
  /** A control beside the frequency buttons (a custom gestalt's delete button). */
  action?: ReactNode
  onToggle: (id: string) => void
  onLevel: (id: string, level: FrequencyLevel) => void
}

const stopToggle = (event: MouseEvent) => event.stopPropagation()

export function GestaltCard({ word, action, onToggle, onLevel }: GestaltCardProps) {
  const { t } = useTranslation('ideogram')
  return (
    <Card
      variant="outlined"
      data-gestalt={word.id}
      // The whole card toggles the word (the title strip is the keyboard's button; a click
      // anywhere else on the card but its buttons does the same).
      onClick={() => onToggle(word.id)}
      sx={{
        cursor: 'pointer',
        borderWidth: 2,
        borderColor: word.selected ? 'primary.main' : 'divider',
        bgcolor: word.playing ? 'action.selected' : 'background.paper',
        transition: 'background-color 120ms',
      }}
    >
      <CardActionArea aria-pressed={word.selected}>
        <CardContent sx={{ py: 1.5 }}>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
          >
            <Typography noWrap title={word.name} sx={{ fontWeight: 600 }}>
              {word.name}
            </Typography>
            {word.playing ? <VolumeUpIcon color="primary" aria-label={t('card.playing')} /> : null}
          </Stack>
        </CardContent>
      </CardActionArea>
      <Stack
        direction="row"
        sx={{
          px: 2,
          pb: 1.5,
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
        }}
      >
        <ToggleButtonGroup
          // A frequency button sets the frequency; it does not toggle the card as well.
          onClick={stopToggle}
          exclusive
          size="small"
          value={word.probabilityLevel}
          aria-label={t('card.frequency', { name: word.name })}
          onChange={(_event, level: FrequencyLevel | null) => {
            if (level) onLevel(word.id, level)
          }}
        >
          {frequencyLevels.map((level) => (
            <ToggleButton key={level} value={level} sx={{ px: 1.25, py: 0.25 }}>
              {t('card.level', { level })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {action ? <Box onClick={stopToggle}>{action}</Box> : null}
      </Stack>
    </Card>
  )
}

export function WaterLockedCard({ onUnlock }: { onUnlock: () => void }) {
  const { t } = useTranslation('ideogram')
  return (
    <Card variant="outlined" sx={{ borderStyle: 'dashed', borderWidth: 2 }}>
      <CardActionArea onClick={onUnlock} sx={{ height: '100%' }}>
        <CardContent>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <LockIcon color="action" fontSize="small" />
            <Box>
              <Typography sx={{ fontWeight: 600 }}>{t('card.addWater')}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('card.signInToUnlock')}
              </Typography>
            </Box>
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  )
}

export const gridSx = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: 'repeat(auto-fill, minmax(140px, 1fr))',
    sm: 'repeat(auto-fill, minmax(180px, 1fr))',
  },
} as const
