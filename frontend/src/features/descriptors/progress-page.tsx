import {
  Alert,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Grid,
  Link,
  Stack,
  Typography,
} from '@mui/material'
import { BarChart } from '@mui/x-charts/BarChart'
import { skipToken } from '@reduxjs/toolkit/query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { SignInPrompt } from '../../components/access/index.ts'
import { useAuth } from '../../components/auth/index.ts'
import { DeleteHistoryCard } from '../../components/delete-history-card.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { paths } from '../../config/paths.ts'
import type { TrainingHistory, TrainingLanguage } from '../../lib/api/generated.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useGetAppSettingsQuery,
  useGetReviewStatsQuery,
  useGetTrainingHistoryQuery,
} from './api.ts'
import { LanguageSelect } from './components/language-select.tsx'
import { localStorageOrNothing, trainerLanguage } from './languages.ts'
import { startOfLocalDay } from './review-queue.ts'
import { storedLanguage } from './trainer-defaults.ts'

/** The activities of the chart, in stacking order (names: `progress.activities.<key>`). */
const activities = [
  { key: 'ideogram' },
  { key: 'descriptors' },
  { key: 'reviews' },
  { key: 'tachistoscope' },
] as const

const timeZone = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
})()

/** A day of the chart, 'Nov 25', in the interface language. */
function dayFormat(language: string): (date: string) => string {
  const format = new Intl.DateTimeFormat(language, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
  return (date) => format.format(new Date(`${date}T12:00:00Z`))
}

/** Minutes as the figures show them: one decimal under ten ('3.0'), else whole ('42'). */
function minutesFormat(language: string): (m: number) => string {
  const small = new Intl.NumberFormat(language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  })
  const large = new Intl.NumberFormat(language, { maximumFractionDigits: 0, useGrouping: false })
  return (m) => (m < 10 ? small.format(m) : large.format(m))
}

/** The day's minutes as a figure: '3.0 min', '42 min' (the interface language's unit). */
function minutesShortFormat(language: string): (m: number) => string {
  const unit = (digits: number) =>
    new Intl.NumberFormat(language, {
      style: 'unit',
      unit: 'minute',
      unitDisplay: 'short',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: false,
    })
  const small = unit(1)
  const large = unit(0)
  return (m) => (m < 10 ? small.format(m) : large.format(m))
}

function useFormats() {
  const { i18n } = useTranslation()
  const language = i18n.language
  return useMemo(
    () => ({
      day: dayFormat(language),
      minutes: minutesFormat(language),
      number: new Intl.NumberFormat(language),
      minutesShort: minutesShortFormat(language),
    }),
    [language],
  )
}

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
  const { t } = useTranslation('descriptors')
  const format = useFormats()
  const empty = history.days.every((d) =>
    activities.every((a) => d.minutes[a.key] === 0 && d.reviews === 0),
  )
  return (
    <Card variant="outlined" component="section" aria-labelledby="progress-minutes">
      <CardContent>
        <Typography id="progress-minutes" variant="h6" component="h2">
          {t('progress.chartTitle')}
        </Typography>
        {empty ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('progress.chartEmpty', { count: history.days.length })}
          </Typography>
        ) : (
          <BarChart
            height={280}
            xAxis={[{ data: history.days.map((d) => format.day(d.date)), scaleType: 'band' }]}
            yAxis={[
              {
                label: t('progress.chartAxis'),
                valueFormatter: (value: number) => format.number.format(value),
              },
            ]}
            series={activities.map((a) => ({
              data: history.days.map((d) => d.minutes[a.key]),
              label: t(`progress.activities.${a.key}`),
              stack: 'minutes',
              valueFormatter: (value: number | null) =>
                value === null ? '' : format.minutes(value),
            }))}
            localeText={{ loading: t('progress.chartLoading'), noData: t('progress.chartNoData') }}
          />
        )}
      </CardContent>
    </Card>
  )
}

/** The user's training over time (issue [14]): streaks, minutes, reviews due and retention. */
export function ProgressPage() {
  usePageMeta('progress')
  const { status } = useAuth()
  const { t, i18n } = useTranslation('descriptors')
  const format = useFormats()
  const signedIn = status === 'signedIn'
  // As in the trainer: the language chosen there, else the interface language, else the
  // administrator's default.
  const settings = useGetAppSettingsQuery().data
  const [languageChoice, setLanguage] = useState<TrainingLanguage | null>(() =>
    storedLanguage(localStorageOrNothing()),
  )
  const language = trainerLanguage({
    choice: languageChoice,
    interfaceLanguage: i18n.language,
    adminDefault: settings?.defaultLanguage,
  })
  const history = useGetTrainingHistoryQuery(signedIn ? { days: 30, timeZone } : skipToken, {
    refetchOnMountOrArgChange: true,
  })
  const reviews = useGetReviewStatsQuery(
    signedIn ? { language, dayStartsAt: startOfLocalDay() } : skipToken,
    { refetchOnMountOrArgChange: true },
  )

  if (status === 'signedOut') {
    return (
      <SignInPrompt
        title={t('progress.title')}
        prompt={t('progress.signInPrompt')}
        signIn={t('progress.signIn')}
      />
    )
  }
  if (status === 'restoring' || history.isLoading) {
    return (
      <PageContainer>
        <CircularProgress aria-label={t('progress.loading')} />
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
              {t('tryAgain')}
            </Button>
          }
        >
          {errorMessage(history.error, t('progress.loadFailed'))}
        </Alert>
      </PageContainer>
    )
  }
  const data = history.data
  const today = data.days.at(-1)
  const todayMinutes = today ? activities.reduce((sum, a) => sum + today.minutes[a.key], 0) : 0
  const totalMinutes = activities.reduce((sum, a) => sum + data.totals.minutes[a.key], 0)
  const stats = reviews.data

  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('progress.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('progress.intro', { timeZone: data.timeZone })}
      </Typography>
      <Stack spacing={3}>
        <Grid container spacing={2} component="section" aria-label={t('progress.figuresLabel')}>
          <Figure
            label={t('progress.streak')}
            value={t('progress.days', { count: data.currentStreak })}
            note={t('progress.longest', { count: data.longestStreak })}
          />
          <Figure
            label={t('progress.today')}
            value={format.minutesShort(todayMinutes)}
            note={t('progress.reviews', { count: today?.reviews ?? 0 })}
          />
          <Figure
            label={t('progress.cardsDue')}
            value={stats ? String(stats.dueNow) : '—'}
            note={stats ? t('progress.dueToday', { count: stats.dueToday }) : undefined}
          />
          <Figure
            label={t('progress.retention')}
            value={
              stats?.retention === null || stats?.retention === undefined
                ? '—'
                : t('progress.percent', { percent: Math.round(stats.retention * 100) })
            }
            note={stats ? t('progress.wordsLearned', { count: stats.cards }) : undefined}
          />
        </Grid>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {t('progress.reviewsIn')}
          </Typography>
          <LanguageSelect value={language} onChange={setLanguage} />
        </Stack>
        <MinutesChart history={data} />
        <Card variant="outlined" component="section" aria-label={t('progress.allTime')}>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {t('progress.allTime')}
            </Typography>
            <Typography>
              {t('progress.totals', {
                sessions: data.totals.sessions,
                reviews: data.totals.reviews,
                count: totalMinutes,
                minutes: format.minutes(totalMinutes),
              })}{' '}
              <Link component={RouterLink} to={paths.practiceStats}>
                {t('progress.practiceStats')}
              </Link>
            </Typography>
          </CardContent>
        </Card>
        <DeleteHistoryCard
          texts={{
            button: t('progress.deleteHistory'),
            confirmTitle: t('progress.deleteHistory'),
            confirmText: t('progress.deleteText'),
            confirmLabel: t('delete'),
            cancel: t('cancel'),
            done: t('progress.deleted'),
            doneText: t('progress.deletedText'),
            failed: t('progress.deleteFailed'),
            tryAgain: t('progress.pleaseTryAgain'),
          }}
        />
      </Stack>
    </PageContainer>
  )
}
