import { Alert, Box, Chip } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { SiderealPlace } from '../lib/api/generated.ts'

/**
 * The places a typed city name fits, biggest first: the one in use is filled, the others
 * outlined; picking one calls `onPick` with it. Shows nothing for a name of one place.
 */
export function PlaceChoice({
  typed,
  candidates,
  chosenId,
  onPick,
  severity = 'info',
}: {
  typed: string
  candidates: readonly SiderealPlace[]
  chosenId: number | null
  onPick: (place: SiderealPlace) => void
  severity?: 'info' | 'warning'
}) {
  const { t } = useTranslation()
  if (candidates.length < 2) return null
  return (
    <Alert severity={severity} data-testid="place-choice">
      {chosenId === null
        ? t('placeChoice.pick', { name: typed })
        : t('placeChoice.several', { name: typed })}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {candidates.map((place) => (
          <Chip
            key={place.place_id}
            label={place.label}
            onClick={() => onPick(place)}
            color={place.place_id === chosenId ? 'primary' : 'default'}
            variant={place.place_id === chosenId ? 'filled' : 'outlined'}
            aria-pressed={place.place_id === chosenId}
            // A long label wraps on a phone instead of being cut off.
            sx={{ height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } }}
          />
        ))}
      </Box>
    </Alert>
  )
}
