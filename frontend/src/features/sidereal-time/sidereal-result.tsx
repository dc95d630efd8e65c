import { Box, Card, CardContent, Chip, Divider, Stack, Typography } from '@mui/material'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
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

const windowFormatOptions: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
}

/** Coordinates, and angles with a degree sign, to four decimals in the interface language. */
export function useFourDecimals(): {
  fourDecimals: (value: number) => string
  degrees: (value: number) => string
} {
  const { i18n } = useTranslation()
  const language = i18n.language
  return useMemo(() => {
    const digits = { minimumFractionDigits: 4, maximumFractionDigits: 4 }
    const plain = new Intl.NumberFormat(language, digits)
    const angle = new Intl.NumberFormat(language, {
      ...digits,
      style: 'unit',
      unit: 'degree',
      unitDisplay: 'narrow',
    })
    return { fourDecimals: (value) => plain.format(value), degrees: (value) => angle.format(value) }
  }, [language])
}

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
  const { t, i18n } = useTranslation('sidereal')
  const language = i18n.language
  const windowFormat = useMemo(
    () => new Intl.DateTimeFormat(language, windowFormatOptions),
    [language],
  )
  const { fourDecimals, degrees } = useFourDecimals()
  const now = useNow(live)
  const elapsed = live ? Math.max(0, now - receivedAt) : 0
  const lst = advanceSidereal(result.lst_degrees, elapsed)
  const lmst = advanceSidereal(result.lmst_degrees, elapsed)
  const utcMs = Date.parse(result.utc_time) + elapsed
  const window = nextSiderealWindow(lst, new Date(utcMs))
  const { latitude, longitude, city, country } = result.location
  const place = [city, country].filter(Boolean).join(', ')

  return (
    <Card variant="outlined" aria-label={t('result.label')}>
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {live ? t('result.titleLive') : t('result.title')}
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
          {degrees(lst)}
        </Typography>
        <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
          <Row label={t('result.utcTime')}>
            <span data-testid="utc-time">{formatUtc(utcMs)}</span>
          </Row>
          <Row label={t('result.latitude')}>
            <span data-testid="latitude">{fourDecimals(latitude)}</span>
          </Row>
          <Row label={t('result.longitude')}>
            <span data-testid="longitude">{fourDecimals(longitude)}</span>
          </Row>
          {place ? (
            <Row label={t('result.place')}>
              <span data-testid="place">{place}</span>
            </Row>
          ) : null}
          <Row label={t('result.meanLst')}>
            {formatSidereal(lmst)} ({degrees(lmst)})
          </Row>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <Stack spacing={1}>
          <Typography variant="subtitle2" component="h3">
            {t('result.window')}{' '}
            {window.inside ? (
              <Chip size="small" color="success" label={t('result.nowInside')} />
            ) : null}
          </Typography>
          <Typography variant="body2" data-testid="lst-window">
            {t(window.inside ? 'result.insideWindow' : 'result.outsideWindow', {
              enters: windowFormat.format(window.enters),
              leaves: windowFormat.format(window.leaves),
            })}
          </Typography>
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          {t('result.note')}
        </Typography>
      </CardContent>
    </Card>
  )
}
