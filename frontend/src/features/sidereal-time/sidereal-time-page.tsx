import MyLocationIcon from '@mui/icons-material/MyLocation'
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Link,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useEffect, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { OutlinedTextField } from '../../components/outlined-field.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { PlaceChoice } from '../../components/place-choice.tsx'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import type { SiderealPlace } from '../../lib/api/generated.ts'
import { currentUiLanguage } from '../../lib/i18n/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { useCalculateSiderealTimeCustomMutation, useGetSiderealTimeAutoQuery } from './api.ts'
import { SiderealArticle } from './sidereal-article.tsx'
import { localInputToUtcIso } from './sidereal-clock.ts'
import { formatUtc, SiderealResult, useFourDecimals } from './sidereal-result.tsx'
import type { SiderealReading } from './sidereal-result.tsx'
import { useGeolocation } from './use-geolocation.ts'
import type { GeolocationStatus, Position } from './use-geolocation.ts'
import { useNow } from './use-now.ts'
import { slot, withElement } from './with-element.tsx'

type Mode = 'auto' | 'custom'

/** When an answer arrived, read in event handlers (never during render). */
const clockNow = () => Date.now()

/** The server answers again every 5 minutes; between answers the clock ticks on its own. */
const AUTO_REFRESH_MS = 5 * 60 * 1000

const geoNames = 'GeoNames'

function LocationPrompt({ status, onAllow }: { status: GeolocationStatus; onAllow: () => void }) {
  const { t } = useTranslation('sidereal')
  const locating = status === 'locating'
  return (
    <Alert
      severity="info"
      icon={<MyLocationIcon />}
      action={
        <Button color="inherit" size="small" onClick={onAllow} disabled={locating}>
          {t('location.allow')}
        </Button>
      }
    >
      <AlertTitle>{t('location.needed')}</AlertTitle>
      {locating ? (
        <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center' }}>
          <CircularProgress size={14} aria-hidden /> {t('location.finding')}
        </Box>
      ) : (
        t('location.orCustomMode')
      )}
    </Alert>
  )
}

function AutoMode({
  position,
  status,
  onAllow,
}: {
  position: Position | null
  status: GeolocationStatus
  onAllow: () => void
}) {
  const { data, fulfilledTimeStamp, isError, error } = useGetSiderealTimeAutoQuery(
    position ? { lat: position.latitude, lng: position.longitude } : skipToken,
    { pollingInterval: AUTO_REFRESH_MS },
  )
  const now = useNow(position !== null)
  const { t } = useTranslation('sidereal')
  const { fourDecimals } = useFourDecimals()
  if (!position) return <LocationPrompt status={status} onAllow={onAllow} />
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }}>
        <Typography>
          {t('auto.latitude')} <b data-testid="auto-latitude">{fourDecimals(position.latitude)}</b>
        </Typography>
        <Typography>
          {t('auto.longitude')}{' '}
          <b data-testid="auto-longitude">{fourDecimals(position.longitude)}</b>
        </Typography>
        <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {t('auto.currentUtc')} <b>{formatUtc(now)}</b>
        </Typography>
      </Stack>
      {isError ? (
        <Alert severity="error">{errorMessage(error, t('errors.calculateFailed'))}</Alert>
      ) : null}
      {data ? (
        <SiderealResult
          reading={{ result: data, receivedAt: fulfilledTimeStamp ?? now, live: true }}
        />
      ) : isError ? null : (
        <CircularProgress aria-label={t('auto.calculating')} />
      )}
    </Stack>
  )
}

/** Suggestions of a 404 'Location not found' (`error.details.suggestions`). */
function suggestionsOf(err: unknown): string[] {
  const data = (err as { data?: { error?: { details?: { suggestions?: unknown } } } }).data
  const list = data?.error?.details?.suggestions
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : []
}

function CustomMode({ position }: { position: Position | null }) {
  const { t } = useTranslation('sidereal')
  const [city, setCity] = useState('')
  const [dateTime, setDateTime] = useState('')
  const [reading, setReading] = useState<SiderealReading | null>(null)
  const [problem, setProblem] = useState<{ message: string; suggestions: string[] } | null>(null)
  // The places the typed name fits, kept while the user picks among them.
  const [choice, setChoice] = useState<{ typed: string; places: SiderealPlace[] } | null>(null)
  const [calculate, { isLoading }] = useCalculateSiderealTimeCustomMutation()
  const canCalculate = city.trim() !== '' || dateTime.trim() !== ''

  const run = async (location: string, placeId?: number) => {
    // Spec §5: only when the city or the time is non-blank.
    if (location.trim() === '' && dateTime.trim() === '') return
    const customTime = localInputToUtcIso(dateTime)
    if (dateTime.trim() !== '' && customTime === undefined) {
      setProblem({ message: t('errors.invalidDateTime'), suggestions: [] })
      return
    }
    const text = location.trim()
    if (text === '' && !position) {
      setProblem({
        message: t('errors.cityOrPosition'),
        suggestions: [],
      })
      return
    }
    setProblem(null)
    if (placeId === undefined) setChoice(null)
    try {
      const result = await calculate({
        siderealCustomRequest: {
          ...(placeId !== undefined ? { placeId } : text !== '' ? { location: text } : {}),
          ...(customTime ? { customTime } : {}),
          language: currentUiLanguage(),
        },
        // The position goes along only when no city was typed (spec §7).
        ...(text === '' && position ? { lat: position.latitude, lng: position.longitude } : {}),
      }).unwrap()
      setReading({ result, receivedAt: clockNow(), live: customTime === undefined })
      if (result.candidates) setChoice({ typed: text, places: result.candidates })
    } catch (err) {
      setReading(null)
      setChoice(null)
      const notFound = errorCode(err) === 'location_not_found'
      setProblem({
        message: notFound
          ? t('errors.locationNotFound')
          : errorMessage(err, t('errors.calculateFailed')),
        suggestions: notFound ? suggestionsOf(err) : [],
      })
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(city)
  }

  const pick = (suggestion: string) => {
    setCity(suggestion)
    void run(suggestion)
  }

  const choose = (place: SiderealPlace) => void run(place.label, place.place_id)

  return (
    <Stack spacing={2}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: 'flex-start' }}
        >
          <OutlinedTextField
            label={t('custom.city')}
            value={city}
            onChange={(e) => setCity(e.target.value)}
            helperText={t('custom.cityHint')}
            htmlInput={{ maxLength: 200 }}
            sx={{ flex: 2, width: '100%' }}
          />
          <OutlinedTextField
            label={t('custom.dateTime')}
            type="datetime-local"
            value={dateTime}
            onChange={(e) => setDateTime(e.target.value)}
            helperText={t('custom.dateTimeHint')}
            shrinkLabel
            htmlInput={{ step: 1 }}
            sx={{ flex: 1, width: '100%' }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={!canCalculate}
            loading={isLoading}
            sx={{ mt: { md: 1 }, whiteSpace: 'nowrap' }}
          >
            {t('custom.calculate')}
          </Button>
        </Stack>
      </Box>
      {problem ? (
        <Alert severity={problem.suggestions.length > 0 ? 'warning' : 'error'}>
          <AlertTitle>{problem.message}</AlertTitle>
          {problem.suggestions.length > 0 ? (
            <>
              {t('custom.didYouMean')}
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
                {problem.suggestions.map((s) => (
                  <Chip key={s} label={s} onClick={() => pick(s)} variant="outlined" />
                ))}
              </Box>
            </>
          ) : null}
        </Alert>
      ) : null}
      {choice && reading ? (
        <PlaceChoice
          typed={choice.typed}
          candidates={choice.places}
          chosenId={reading.result.location.place_id ?? null}
          onPick={choose}
        />
      ) : null}
      {reading ? <SiderealResult reading={reading} /> : null}
      <Typography variant="caption" color="text.secondary">
        {withElement(
          t('custom.offlineSearch', { source: slot }),
          <Link href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">
            {geoNames}
          </Link>,
        )}
      </Typography>
    </Stack>
  )
}

export function SiderealTimePage() {
  usePageMeta('siderealTime')
  const { t } = useTranslation('sidereal')
  const [mode, setMode] = useState<Mode>('auto')
  const { position, status, request } = useGeolocation()

  // Spec §4: auto mode starts location detection whenever no location is known.
  useEffect(() => {
    if (mode === 'auto' && !position && status === 'idle') request()
  }, [mode, position, status, request])

  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('page.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('page.intro')}
      </Typography>
      <Card variant="outlined" sx={{ mb: 4 }}>
        <CardContent>
          <ToggleButtonGroup
            exclusive
            color="primary"
            value={mode}
            onChange={(_, value: Mode | null) => value && setMode(value)}
            aria-label={t('page.mode')}
            sx={{ mb: 3 }}
          >
            <ToggleButton value="auto">{t('page.autoMode')}</ToggleButton>
            <ToggleButton value="custom">{t('page.customMode')}</ToggleButton>
          </ToggleButtonGroup>
          {mode === 'auto' ? (
            <AutoMode position={position} status={status} onAllow={request} />
          ) : (
            <CustomMode position={position} />
          )}
        </CardContent>
      </Card>
      <SiderealArticle />
    </PageContainer>
  )
}
