import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Grid,
  Link,
  Stack,
  Typography,
} from '@mui/material'
import { BarChart } from '@mui/x-charts/BarChart'
import { skipToken } from '@reduxjs/toolkit/query'
import { useId, useState } from 'react'
import { Link as RouterLink } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { paths } from '../../config/paths.ts'
import {
  useDeleteTrainingHistoryMutation,
  useGetReviewStatsQuery,
  useGetTrainingHistoryQuery,
} from '../../lib/api/generated.ts'
import type { TrainingHistory, TrainingLanguage } from '../../lib/api/generated.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { LanguageSelect } from './components/language-select.tsx'
import { defaultLanguage, localStorageOrNothing } from './languages.ts'
import { startOfLocalDay } from './review-queue.ts'
import { storedLanguage } from './trainer-defaults.ts'

const activities = [
  { key: 'ideogram', label: 'Ideograms' },
  { key: 'descriptors', label: 'Descriptors' },
  { key: 'reviews', label: 'Reviews' },
  { key: 'tachistoscope', label: 'Tachistoscope' },
] as const

const timeZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
})()

const dayLabel = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })

const minutes = (m: number) => (m < 10 ? m.toFixed(1) : Math.round(m).toString())

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Grid size={{ xs: 6, md: 3 }}>
      <Card variant="outlined" sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
            {value}
          </Typography>
          {note ? (
            <Typography variant="caption" color="text.secondary">
              {note}
            </Typography>
          ) : null}
        </CardContent>
      </Card>
    </Grid>
  )
}

function MinutesChart({ history }: { history: TrainingHistory }) {
  const empty = history.days.every((d) =>
    activities.every((a) => d.minutes[a.key] === 0 && d.reviews === 0),
  )
  return (
    <Card variant="outlined" component="section" aria-labelledby="progress-minutes">
      <CardContent>
        <Typography id="progress-minutes" variant="h6" component="h2">
          Minutes per day
        </Typography>
        {empty ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Nothing yet in the last {history.days.length} days. Train a little every day: the streak
            and this chart fill up as you go.
          </Typography>
        ) : (
          <BarChart
            height={280}
            xAxis={[{ data: history.days.map((d) => dayLabel(d.date)), scaleType: 'band' }]}
            yAxis={[{ label: 'Minutes' }]}
            series={activities.map((a) => ({
              data: history.days.map((d) => d.minutes[a.key]),
              label: a.label,
              stack: 'minutes',
            }))}
          />
        )}
      </CardContent>
    </Card>
  )
}

/** The user's training over time (issue [14]): streaks, minutes, reviews due and retention. */
export function ProgressPage() {
  usePageMeta('progress')
  const { status, openSignIn } = useAuth()
  const signedIn = status === 'signedIn'
  const [language, setLanguage] = useState<TrainingLanguage>(
    () => storedLanguage(localStorageOrNothing()) ?? defaultLanguage,
  )
  const history = useGetTrainingHistoryQuery(signedIn ? { days: 30, timeZone } : skipToken, {
    refetchOnMountOrArgChange: true,
  })
  const reviews = useGetReviewStatsQuery(
    signedIn ? { language, dayStartsAt: startOfLocalDay() } : skipToken,
    { refetchOnMountOrArgChange: true },
  )
  const [deleteHistory, deleting] = useDeleteTrainingHistoryMutation()
  const [confirming, setConfirming] = useState(false)
  const { toast } = useToast()
  const titleId = useId()

  if (status === 'signedOut') {
    return (
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          Your Progress
        </Typography>
        <Alert
          severity="info"
          action={
            <Button color="inherit" onClick={openSignIn}>
              Sign in
            </Button>
          }
        >
          Sign in to keep your training history and follow your progress on every device.
        </Alert>
      </PageContainer>
    )
  }
  if (status === 'restoring' || history.isLoading) {
    return (
      <PageContainer>
        <CircularProgress aria-label="Loading your progress" />
      </PageContainer>
    )
  }
  if (history.error || !history.data) {
    return (
      <PageContainer>
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void history.refetch()}>
              Try again
            </Button>
          }
        >
          {errorMessage(history.error, 'Your progress could not be loaded.')}
        </Alert>
      </PageContainer>
    )
  }
  const data = history.data
  const today = data.days.at(-1)
  const todayMinutes = today ? activities.reduce((sum, a) => sum + today.minutes[a.key], 0) : 0
  const stats = reviews.data

  async function onDelete() {
    const result = await deleteHistory()
    setConfirming(false)
    if ('error' in result) {
      toast({
        title: 'Delete failed',
        description: errorMessage(result.error, 'Please try again.'),
        variant: 'destructive',
      })
      return
    }
    toast({ title: 'Training history deleted', description: 'Your history starts afresh.' })
    void history.refetch()
    void reviews.refetch()
  }

  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        Your Progress
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Your training on every device you sign in on, day by day ({data.timeZone}).
      </Typography>
      <Stack spacing={3}>
        <Grid container spacing={2} component="section" aria-label="Your figures">
          <Figure
            label="Current streak"
            value={`${data.currentStreak} ${data.currentStreak === 1 ? 'day' : 'days'}`}
            note={`Longest: ${data.longestStreak} ${data.longestStreak === 1 ? 'day' : 'days'}`}
          />
          <Figure
            label="Today"
            value={`${minutes(todayMinutes)} min`}
            note={`${today?.reviews ?? 0} reviews`}
          />
          <Figure
            label="Cards due"
            value={stats ? String(stats.dueNow) : '—'}
            note={stats ? `${stats.dueToday} by the end of today` : undefined}
          />
          <Figure
            label="Retention (30 days)"
            value={
              stats?.retention === null || stats?.retention === undefined
                ? '—'
                : `${Math.round(stats.retention * 100)} %`
            }
            note={stats ? `${stats.cards} words learned` : undefined}
          />
        </Grid>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            Reviews in
          </Typography>
          <LanguageSelect value={language} onChange={setLanguage} />
        </Stack>
        <MinutesChart history={data} />
        <Card variant="outlined" component="section" aria-label="All time">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              All time
            </Typography>
            <Typography>
              {data.totals.sessions} {data.totals.sessions === 1 ? 'session' : 'sessions'},{' '}
              {data.totals.reviews} review {data.totals.reviews === 1 ? 'answer' : 'answers'},{' '}
              {minutes(activities.reduce((sum, a) => sum + data.totals.minutes[a.key], 0))} minutes
              in all.{' '}
              <Link component={RouterLink} to={paths.practiceStats}>
                Practice statistics
              </Link>
            </Typography>
          </CardContent>
        </Card>
        <Box>
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteOutlineIcon />}
            onClick={() => setConfirming(true)}
          >
            Delete training history
          </Button>
        </Box>
      </Stack>
      <Dialog
        open={confirming}
        onClose={deleting.isLoading ? undefined : () => setConfirming(false)}
        aria-labelledby={titleId}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle id={titleId}>Delete training history</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Every recorded session, every review answer and the schedule of every word you review
            are deleted for good, on all your devices. Your custom words stay.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={deleting.isLoading}>
            Cancel
          </Button>
          <Button color="error" onClick={() => void onDelete()} disabled={deleting.isLoading}>
            {deleting.isLoading ? 'Deleting…' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>
    </PageContainer>
  )
}
