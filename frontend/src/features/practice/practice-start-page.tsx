import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  Link,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { Link as RouterLink, useNavigate } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { OutlinedTextField } from '../../components/outlined-field.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { PlaceChoice } from '../../components/place-choice.tsx'
import { paths, practiceSessionPath } from '../../config/paths.ts'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import { onDemand, usePreloadWhenIdle } from '../../lib/on-demand.tsx'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import type { SiderealPlace } from '../../lib/api/generated.ts'
import { currentUiLanguage } from '../../lib/i18n/index.ts'
import {
  useCalculateSiderealTimeCustomMutation,
  useListPracticeSessionsQuery,
  useStartPracticeSessionMutation,
} from './api.ts'
import type { PracticeSessionSummary } from './api.ts'
import { savedCity, setSavedCity, useJudgeByText } from './preferences.ts'
import { formatDateTime, formatLst } from './format.ts'

/**
 * A visitor's trial, opened by a click: its code (the write-up, judging and reveal) is fetched
 * once the page is idle, or at the click if that comes first.
 */
const TrialRunner = onDemand(
  () => import('./components/trial-runner.tsx').then((m) => m.TrialRunner),
  () => true,
)
const onDemandParts = [TrialRunner] as const

/** The open session a start was refused for (409 `session_open`), from the error's details. */
function openSessionOf(err: unknown): string | null {
  if (errorCode(err) !== 'session_open') return null
  const details = (err as { data?: { error?: { details?: { sessionId?: unknown } } } }).data?.error
    ?.details
  return typeof details?.sessionId === 'string' ? details.sessionId : null
}

/** A session's state in the list, in the interface language. */
function statusLabel(t: TFunction<'practice'>, s: PracticeSessionSummary): string {
  switch (s.status) {
    case 'judged':
      return t('start.statusJudged', { rank: s.rank, candidates: s.candidateCount })
    case 'locked':
      return t('start.statusLocked')
    case 'abandoned':
      return t('start.statusAbandoned')
    default:
      return t('start.statusOpen')
  }
}

/** The position for the session's sidereal time, or nothing if the viewer declines. */
function currentPosition(): Promise<{ latitude: number; longitude: number } | null> {
  if (!('geolocation' in navigator)) return Promise.resolve(null)
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { maximumAge: 600_000, timeout: 8_000 },
    ),
  )
}

/**
 * Whether the first of the places a name fits is the one a person means without asking: ten
 * times the people of the next (Rome, Italy against Roma, Texas; Berlin against the Berlins of
 * Ohio). Otherwise (Springfield, Valencia, Portland) the user picks.
 */
function clearlyBiggest(places: readonly SiderealPlace[]): boolean {
  const [first, second] = places
  return !second || (first?.population ?? 0) >= 10 * second.population
}

export function PracticeStartPage() {
  usePageMeta('practice')
  const { t, i18n } = useTranslation('practice')
  const { status, openSignIn } = useAuth()
  const signedIn = status === 'signedIn'
  const navigate = useNavigate()
  const [candidates, setCandidates] = useState<5 | 10>(5)
  const [byText, setByText] = useJudgeByText()
  const byTextNote = useId()
  const [useLocation, setUseLocation] = useState(true)
  const [city, setCity] = useState(savedCity)
  // A city name that fits several places: the session starts once the user picked one.
  const [choice, setChoice] = useState<{ typed: string; places: SiderealPlace[] } | null>(null)
  const [lookUpCity] = useCalculateSiderealTimeCustomMutation()
  const [start, starting] = useStartPracticeSessionMutation()
  const [failure, setFailure] = useState<string | null>(null)
  const [refusedFor, setRefusedFor] = useState<string | null>(null)
  const [trial, setTrial] = useState(false)
  const sessions = useListPracticeSessionsQuery(signedIn ? undefined : skipToken)
  usePreloadWhenIdle(onDemandParts)
  const unfinished = sessions.data?.find((s) => s.status === 'open' || s.status === 'locked')

  const begin = async (picked?: SiderealPlace) => {
    setFailure(null)
    setRefusedFor(null)
    setChoice(null)
    let position: { latitude: number; longitude: number } | null = null
    if (picked) {
      setCity(picked.label)
      setSavedCity(picked.label)
      position = { latitude: picked.latitude, longitude: picked.longitude }
    } else if (city.trim()) {
      // A saved city instead of the browser's position: its coordinates from the astro service.
      setSavedCity(city.trim())
      try {
        const found = await lookUpCity({
          siderealCustomRequest: { location: city.trim(), language: currentUiLanguage() },
        }).unwrap()
        if (found.candidates && !clearlyBiggest(found.candidates)) {
          // Never one of several towns of that name silently: the user says which place.
          setChoice({ typed: city.trim(), places: found.candidates })
          return
        }
        position = { latitude: found.location.latitude, longitude: found.location.longitude }
      } catch (err) {
        setFailure(errorMessage(err, t('start.cityNotFound', { city: city.trim() })))
        return
      }
    } else if (useLocation) position = await currentPosition()
    try {
      const started = await start({
        practiceStartRequest: { candidates, ...(position ?? {}) },
      }).unwrap()
      // The commitments are kept on this device before the session opens: the reveal is
      // checked against this copy. Its code comes with the click, not with the first screen.
      const { keepCommitments } = await import('./commitment-store.ts')
      await keepCommitments({
        key: started.id,
        sessionId: started.id,
        trn: started.trn,
        commitment: started.commitment,
        candidateCommitment: started.candidateCommitment,
        startedAt: started.startedAt,
        candidateCount: started.candidateCount,
        frontloading: started.frontloading,
      })
      navigate(practiceSessionPath(started.id))
    } catch (err) {
      const open = openSessionOf(err)
      if (open) setRefusedFor(open)
      else setFailure(errorMessage(err, t('start.startFailed')))
    }
  }

  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('start.heading')}
      </Typography>
      <Typography sx={{ mb: 2, maxWidth: '70ch' }}>{t('start.intro')}</Typography>
      {signedIn && unfinished ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('start.openSession', { trn: unfinished.trn, state: statusLabel(t, unfinished) })}
          <Box sx={{ mt: 1 }}>
            <Button
              variant="contained"
              component={RouterLink}
              to={practiceSessionPath(unfinished.id)}
              startIcon={<PlayArrowIcon />}
              sx={{ minHeight: 44 }}
            >
              {t('start.continueSession')}
            </Button>
          </Box>
        </Alert>
      ) : null}
      {trial && !signedIn ? (
        <TrialRunner onSignIn={openSignIn} />
      ) : (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Stack spacing={2}>
              <Box>
                <Typography variant="subtitle2" component="p" id="candidates-label">
                  {t('start.candidatesLabel')}
                </Typography>
                <ToggleButtonGroup
                  exclusive
                  aria-labelledby="candidates-label"
                  value={candidates}
                  onChange={(_e, next: 5 | 10 | null) => next && setCandidates(next)}
                >
                  <ToggleButton value={5} sx={{ minWidth: 56, minHeight: 44 }}>
                    5
                  </ToggleButton>
                  <ToggleButton value={10} sx={{ minWidth: 56, minHeight: 44 }}>
                    10
                  </ToggleButton>
                </ToggleButtonGroup>
              </Box>
              <Box>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={byText}
                      onChange={(e) => setByText(e.target.checked)}
                      slotProps={{ input: { 'aria-describedby': byTextNote } }}
                    />
                  }
                  label={t('start.judgeByText')}
                />
                <Typography
                  id={byTextNote}
                  variant="body2"
                  color="text.secondary"
                  sx={{ ml: 4, maxWidth: '70ch' }}
                >
                  {t('start.judgeByTextNote')}
                </Typography>
              </Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={useLocation}
                    onChange={(e) => setUseLocation(e.target.checked)}
                  />
                }
                label={t('start.useLocation')}
              />
              <OutlinedTextField
                label={t('start.city')}
                value={city}
                onChange={(e) => {
                  setCity(e.target.value)
                  setChoice(null)
                }}
                sx={{ maxWidth: 420 }}
                htmlInput={{ maxLength: 200 }}
              />
              {choice ? (
                <PlaceChoice
                  typed={choice.typed}
                  candidates={choice.places}
                  chosenId={null}
                  onPick={(place) => void begin(place)}
                  severity="warning"
                />
              ) : null}
              <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '70ch' }}>
                {t('start.abandonNote')}
              </Typography>
              {failure ? <Alert severity="warning">{failure}</Alert> : null}
              {refusedFor ? (
                <Alert severity="warning">
                  {t('start.sessionOpen')}
                  <Box sx={{ mt: 1 }}>
                    <Button
                      variant="outlined"
                      color="inherit"
                      component={RouterLink}
                      to={practiceSessionPath(refusedFor)}
                      sx={{ minHeight: 44 }}
                    >
                      {t('start.continueSession')}
                    </Button>
                  </Box>
                </Alert>
              ) : null}
              <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
                {signedIn ? (
                  <Button
                    variant="contained"
                    size="large"
                    startIcon={
                      starting.isLoading ? (
                        <CircularProgress size={18} aria-hidden />
                      ) : (
                        <PlayArrowIcon />
                      )
                    }
                    disabled={starting.isLoading}
                    onClick={() => void begin()}
                    sx={{ minHeight: 44 }}
                  >
                    {t('start.startSession')}
                  </Button>
                ) : (
                  <>
                    <Button
                      variant="contained"
                      size="large"
                      // The form stays until the trial's code is in: no empty moment between.
                      onClick={() => TrialRunner.whenLoaded(() => setTrial(true))}
                      sx={{ minHeight: 44 }}
                    >
                      {t('start.tryOne')}
                    </Button>
                    <Button
                      variant="outlined"
                      size="large"
                      onClick={openSignIn}
                      sx={{ minHeight: 44 }}
                    >
                      {t('start.signInToKeep')}
                    </Button>
                  </>
                )}
                {signedIn ? (
                  <Button component={RouterLink} to={paths.practiceStats} sx={{ minHeight: 44 }}>
                    {t('start.yourStatistics')}
                  </Button>
                ) : null}
                {signedIn ? (
                  <Button
                    component={RouterLink}
                    to={paths.practiceContributions}
                    sx={{ minHeight: 44 }}
                  >
                    {t('contributions.heading')}
                  </Button>
                ) : null}
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      )}
      {signedIn && sessions.data && sessions.data.length > 0 ? (
        <Box component="section" aria-label={t('start.yourSessions')}>
          <Typography variant="h6" component="h2">
            {t('start.yourSessions')}
          </Typography>
          <List>
            {sessions.data.slice(0, 20).map((s) => (
              <ListItemButton key={s.id} component={RouterLink} to={practiceSessionPath(s.id)}>
                {s.imageUrl ? (
                  <Box
                    component="img"
                    src={s.imageUrl}
                    alt=""
                    sx={{ width: 64, height: 48, objectFit: 'cover', mr: 2, borderRadius: 0.5 }}
                  />
                ) : null}
                <ListItemText
                  primary={`${s.trn} · ${statusLabel(t, s)}`}
                  secondary={`${formatDateTime(i18n.language, s.startedAt)} · ${formatLst(s.lstHours)}${s.title ? ` · ${s.title}` : ''}`}
                />
              </ListItemButton>
            ))}
          </List>
          <Link component={RouterLink} to={paths.practiceStats}>
            {t('start.allStatistics')}
          </Link>
        </Box>
      ) : null}
    </PageContainer>
  )
}
