import { Box, Card, CardContent, Chip, Divider, Stack, Typography } from '@mui/material'
import type { SiderealTime } from '../../lib/api/generated.ts'
import { advanceSidereal, formatSidereal, nextSiderealWindow } from './sidereal-clock.ts'
import { useNow } from './use-now.ts'

export interface SiderealReading {
  result: SiderealTime
  /** Client clock when the answer arrived. */
  receivedAt: number
  /** The answer is for "now": keep it ticking. A typed instant stays as it is. */
  live: boolean
}

const windowFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
})

/** '2024-06-21 03:14:15 UTC' */
export const formatUtc = (ms: number) =>
  `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Typography component="dt" color="text.secondary" sx={{ minWidth: 140 }}>
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </Typography>
    </Box>
  )
}

/** The answer: LST (ticking at the sidereal rate between answers), UTC, place, next window. */
export function SiderealResult({ reading }: { reading: SiderealReading }) {
  const { result, receivedAt, live } = reading
  const now = useNow(live)
  const elapsed = live ? Math.max(0, now - receivedAt) : 0
  const lst = advanceSidereal(result.lst_degrees, elapsed)
  const lmst = advanceSidereal(result.lmst_degrees, elapsed)
  const utcMs = Date.parse(result.utc_time) + elapsed
  const window = nextSiderealWindow(lst, new Date(utcMs))
  const { latitude, longitude, city, country } = result.location
  const place = [city, country].filter(Boolean).join(', ')

  return (
    <Card variant="outlined" aria-label="Local sidereal time">
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          Local sidereal time{live ? ' (live)' : ''}
        </Typography>
        <Typography
          variant="h2"
          component="p"
          data-testid="lst-formatted"
          sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 500 }}
        >
          {formatSidereal(lst)}
        </Typography>
        <Typography variant="h6" component="p" data-testid="lst-degrees" sx={{ mb: 2 }}>
          {lst.toFixed(4)}°
        </Typography>
        <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
          <Row label="UTC time">
            <span data-testid="utc-time">{formatUtc(utcMs)}</span>
          </Row>
          <Row label="Latitude">
            <span data-testid="latitude">{latitude.toFixed(4)}</span>
          </Row>
          <Row label="Longitude">
            <span data-testid="longitude">{longitude.toFixed(4)}</span>
          </Row>
          {place ? (
            <Row label="Place">
              <span data-testid="place">{place}</span>
            </Row>
          ) : null}
          <Row label="Mean LST">
            {formatSidereal(lmst)} ({lmst.toFixed(4)}°)
          </Row>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <Stack spacing={1}>
          <Typography variant="subtitle2" component="h3">
            12.5–14.5 h LST here, by your clock{' '}
            {window.inside ? <Chip size="small" color="success" label="Now inside" /> : null}
          </Typography>
          <Typography variant="body2" data-testid="lst-window">
            {window.inside
              ? `Leaves ${windowFormat.format(window.leaves)}; next enters ${windowFormat.format(window.enters)}.`
              : `Enters ${windowFormat.format(window.enters)}, leaves ${windowFormat.format(window.leaves)}.`}
          </Typography>
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          Apparent sidereal time (IAU 2006/2000A). UT1 is taken as UTC, which differ by under a
          second.
        </Typography>
      </CardContent>
    </Card>
  )
}
