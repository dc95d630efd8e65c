import DownloadIcon from '@mui/icons-material/Download'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Grid,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  alpha,
} from '@mui/material'
import type { Theme } from '@mui/material'
import { BarChart } from '@mui/x-charts/BarChart'
import { LineChart } from '@mui/x-charts/LineChart'
import { skipToken } from '@reduxjs/toolkit/query'
import type { TFunction } from 'i18next'
import { useId, useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useSearchParams } from 'react-router-dom'
import { SignInPrompt } from '../../components/access/index.ts'
import { useAuth } from '../../components/auth/index.ts'
import { OutlinedNativeSelect, OutlinedTextField } from '../../components/outlined-field.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { practiceSessionPath } from '../../config/paths.ts'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import type {
  PracticeFamiliarity,
  PracticeRankStats,
  PracticeSeries,
} from '../../lib/api/generated.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useDeclarePracticeSeriesMutation,
  useGetPracticeStatsQuery,
  useLazyExportPracticeSessionsQuery,
  useListPracticeSeriesQuery,
} from './api.ts'
import type { PracticeSessionSummary, PracticeStats } from './api.ts'
import { fixed, formatDateTime, formatNumber, formatLst, SENSORY_COLUMNS } from './format.ts'

/** The window around 13.5 h LST the statistics compare (a time range, the same in every language). */
const SIDEREAL_WINDOW = '12:30–14:30 LST'

const EXPORT_FORMATS = ['json', 'csv'] as const

/** The classes of pictures the statistics can be kept to (PracticePicturesSeen), in the URL. */
const FAMILIARITIES = ['unseen', 'rested', 'recent'] as const satisfies PracticeFamiliarity[]
const familiarityIn = (value: string | null): PracticeFamiliarity | undefined =>
  FAMILIARITIES.find((f) => f === value)

/** Keeps the statistics to the sessions whose pictures were of one class; "all" by default. */
function FamiliarityFilter({
  value,
  onChange,
}: {
  value: PracticeFamiliarity | undefined
  onChange: (next: PracticeFamiliarity | undefined) => void
}) {
  const { t } = useTranslation('practice')
  return (
    <OutlinedNativeSelect
      label={t('stats.familiarity.label')}
      value={value ?? 'all'}
      onChange={(e) => onChange(familiarityIn(e.target.value))}
      sx={{ width: '100%', maxWidth: 360, mb: 2 }}
    >
      <option value="all">{t('stats.familiarity.all')}</option>
      {FAMILIARITIES.map((f) => (
        <option key={f} value={f}>
          {t(`stats.familiarity.${f}`)}
        </option>
      ))}
    </OutlinedNativeSelect>
  )
}

type ColumnKey = (typeof SENSORY_COLUMNS)[number]
const isColumn = (category: string): category is ColumnKey =>
  (SENSORY_COLUMNS as readonly string[]).includes(category)

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  URL.revokeObjectURL(url)
}

/** A history row's picture, or an empty place of its size for a session without one. */
const thumbnail = {
  width: 64,
  height: 48,
  flexShrink: 0,
  objectFit: 'cover',
  mr: 2,
  borderRadius: 0.5,
  bgcolor: 'action.hover',
} as const

/** Table cells a 390-pixel phone has room for: less padding at the sides. */
const compactCells = { '& th, & td': { px: { xs: 0.75, sm: 2 } } } as const

/**
 * A table wider than the screen (a phone, a language with long words) scrolls sideways in its
 * card, which would cut it off otherwise; a shadow at an edge shows that more lies beyond it.
 */
const sidewaysScroll = (theme: Theme) => {
  const paper = theme.palette.background.paper
  const shadow = alpha(theme.palette.text.primary, 0.2)
  return {
    overflowX: 'auto',
    // Covers that scroll with the table hide each shadow once its edge is reached.
    background: [
      `linear-gradient(to right, ${paper} 30%, transparent) left / 40px 100% no-repeat local`,
      `linear-gradient(to left, ${paper} 30%, transparent) right / 40px 100% no-repeat local`,
      `radial-gradient(farthest-side at 0 50%, ${shadow}, transparent) left / 14px 100% no-repeat scroll`,
      `radial-gradient(farthest-side at 100% 50%, ${shadow}, transparent) right / 14px 100% no-repeat scroll`,
    ].join(', '),
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
  } as const
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹'
const superscript = (exponent: string) =>
  exponent.replace('-', '⁻').replace(/\d/g, (d) => SUPERSCRIPT_DIGITS[Number(d)] ?? d)

/**
 * A probability as people read it: two significant digits down to 0.001, below that in
 * scientific notation ("3.2 × 10⁻⁸"), never "0". The server sends Number.MIN_VALUE for one
 * too small for a double.
 */
function formatP(language: string, p: number | null): string {
  if (p === null) return '—'
  if (p >= 0.001) return new Intl.NumberFormat(language, { maximumSignificantDigits: 2 }).format(p)
  if (p <= Number.MIN_VALUE) return `< 10${superscript('-323')}`
  const [mantissa = '1', exponent = '0'] = p.toExponential(1).split('e')
  const digits = new Intl.NumberFormat(language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(Number(mantissa))
  return `${digits} × 10${superscript(exponent)}`
}

/** The same figures of the viewer's own ranking and of the analytic judge's, side by side. */
function RankComparison({ stats }: { stats: PracticeStats }) {
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const judges = [stats, stats.analytic] as const
  /** Each row: its label, and for one judge the figure with, under it, its chance value. */
  const rows: [string, (s: PracticeRankStats) => [string, string | null]][] = [
    [
      t('stats.sumOfRanks'),
      (s) => [formatNumber(language, s.sumOfRanks), formatNumber(language, s.expectedSumOfRanks)],
    ],
    [t('stats.zScore'), (s) => [fixed(language, s.z), null]],
    [t('stats.sumOfRanksP'), (s) => [formatP(language, s.sumOfRanksP), null]],
    [t('stats.effectSize'), (s) => [fixed(language, s.effectSize), null]],
    [
      t('stats.firstPlaceHits'),
      (s) => [formatNumber(language, s.hits), fixed(language, s.expectedHits, 1)],
    ],
    [t('stats.hitsProbability'), (s) => [formatP(language, s.hitsP), null]],
  ]
  return (
    <Table
      size="small"
      aria-label={t('stats.comparisonLabel')}
      sx={{ maxWidth: 720, ...compactCells }}
    >
      <TableHead>
        <TableRow>
          <TableCell>{t('stats.figure')}</TableCell>
          <TableCell align="right">{t('stats.you')}</TableCell>
          <TableCell align="right">{t('stats.analyticJudge')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(([label, figures]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row">
              {label}
            </TableCell>
            {judges.map((judge, i) => {
              const [value, chance] = figures(judge)
              return (
                <TableCell key={i} align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {value}
                  {chance === null ? null : (
                    <Typography variant="caption" component="span" sx={{ display: 'block' }}>
                      {t('stats.chanceValue', { value: chance })}
                    </Typography>
                  )}
                </TableCell>
              )
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

function Figures({ stats }: { stats: PracticeStats }) {
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const closed = stats.judged + stats.abandoned
  if (!stats.significanceShown) {
    return (
      <Alert severity="info">
        {t('stats.tooFew', { closed, remaining: Math.max(0, 10 - closed) })}
      </Alert>
    )
  }
  return (
    <Card variant="outlined" component="section" aria-label={t('stats.figuresRegion')}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('stats.figuresHeading')}
        </Typography>
        <RankComparison stats={stats} />
        <Grid container spacing={2} sx={{ mt: 1, maxWidth: 720 }}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <Typography variant="body2" color="text.secondary">
              {t('stats.meanFigureOfMerit')}
            </Typography>
            <Typography variant="h6" component="p">
              {fixed(language, stats.meanFigureOfMerit, 3)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('stats.chanceFigureOfMerit', {
                value: fixed(language, stats.meanChanceFigureOfMerit, 3),
              })}
            </Typography>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <Typography variant="body2" color="text.secondary">
              {t('stats.closedSessions')}
            </Typography>
            <Typography variant="h6" component="p">
              {formatNumber(language, closed)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('stats.closedSplit', { judged: stats.judged, abandoned: stats.abandoned })}
            </Typography>
          </Grid>
        </Grid>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2, maxWidth: '75ch' }}>
          {t('stats.chanceExplanation')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, maxWidth: '75ch' }}>
          {t('stats.analyticExplanation')}
        </Typography>
      </CardContent>
    </Card>
  )
}

function SiderealCard({ sidereal }: { sidereal: PracticeStats['sidereal'] }) {
  const { t, i18n } = useTranslation('practice')
  const headingId = useId()
  const language = i18n.language
  const minimum = sidereal.minimumPerWindow
  const difference = sidereal.difference
  return (
    <Card variant="outlined" component="section" aria-label={t('stats.bySiderealRegion')}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2">
          {t('stats.bySiderealHeading')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('stats.siderealExplanation')}
        </Typography>
        {/* Focusable, so that keys scroll it too. */}
        <Box
          role="group"
          aria-labelledby={headingId}
          tabIndex={0}
          sx={[sidewaysScroll, { maxWidth: 560 }]}
        >
          <Table size="small" sx={compactCells}>
            <TableHead>
              <TableRow>
                <TableCell>{t('stats.window')}</TableCell>
                <TableCell align="right">{t('stats.sessions')}</TableCell>
                <TableCell align="right">{t('stats.meanRank')}</TableCell>
                <TableCell align="right">{t('stats.hits')}</TableCell>
                <TableCell align="right">{t('stats.z')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(
                [
                  [SIDEREAL_WINDOW, sidereal.inside],
                  [t('stats.otherTimes'), sidereal.outside],
                ] as const
              ).map(([label, w]) => (
                <TableRow key={label}>
                  <TableCell component="th" scope="row">
                    {label}
                  </TableCell>
                  <TableCell align="right">{formatNumber(language, w.sessions)}</TableCell>
                  <TableCell align="right">{fixed(language, w.meanRank)}</TableCell>
                  <TableCell align="right">{formatNumber(language, w.hits)}</TableCell>
                  <TableCell align="right">
                    {w.sessions < minimum ? (
                      <Typography variant="body2" component="span" color="text.secondary">
                        {t('stats.needsSessions', { count: minimum })}
                      </Typography>
                    ) : (
                      fixed(language, w.z)
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {difference
            ? t('stats.siderealDifference', {
                z: fixed(language, difference.z),
                p: formatP(language, difference.p),
              })
            : t('stats.siderealCompareFrom', { count: minimum })}
        </Typography>
        {sidereal.unknown > 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('stats.noSidereal', { count: sidereal.unknown })}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  )
}

function SeriesItem({ series }: { series: PracticeSeries }) {
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const result = series.complete ? series.result : null
  return (
    <Box component="li" sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <Typography>
        {t(series.judging === 'self' ? 'stats.series.itemSelf' : 'stats.series.itemAnalytic', {
          sessions: series.sessions,
          candidates: series.candidates,
        })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('stats.series.declaredAt', { date: formatDateTime(language, series.declaredAt) })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={Math.min(100, (100 * series.closed) / series.sessions)}
        aria-label={t('stats.series.progressLabel')}
        sx={{ my: 1, maxWidth: 420 }}
      />
      <Typography variant="body2">
        {t('stats.series.progress', {
          closed: series.closed,
          started: series.started,
          sessions: series.sessions,
        })}
      </Typography>
      {result ? (
        <Box sx={{ mt: 0.5 }}>
          <Typography variant="body2">
            {t('stats.series.resultSum', {
              value: formatNumber(language, result.sumOfRanks),
              expected: formatNumber(language, result.expectedSumOfRanks),
              z: fixed(language, result.z),
              p: formatP(language, result.sumOfRanksP),
            })}
          </Typography>
          <Typography variant="body2">
            {t('stats.series.resultHits', {
              hits: formatNumber(language, result.hits),
              expected: fixed(language, result.expectedHits, 1),
              p: formatP(language, result.hitsP),
            })}
          </Typography>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('stats.series.running', { sessions: series.sessions })}
        </Typography>
      )}
    </Box>
  )
}

/** A whole number of sessions a series may have, or null. */
function seriesLength(text: string): number | null {
  if (!/^\d{1,4}$/.test(text.trim())) return null
  const n = Number(text.trim())
  return n >= 5 && n <= 1000 ? n : null
}

function SeriesForm() {
  const { t } = useTranslation('practice')
  const { toast } = useToast()
  const [sessions, setSessions] = useState('20')
  const [candidates, setCandidates] = useState<5 | 10>(5)
  const [judging, setJudging] = useState<'self' | 'analytic'>('self')
  const [failure, setFailure] = useState<string | null>(null)
  const [declare, declaring] = useDeclarePracticeSeriesMutation()
  const n = seriesLength(sessions)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (n === null) return
    setFailure(null)
    try {
      await declare({ practiceSeriesDeclare: { sessions: n, candidates, judging } }).unwrap()
      toast({ title: t('stats.series.declared', { sessions: n }), variant: 'success' })
    } catch (err) {
      const code = errorCode(err)
      const fallback =
        code === 'series_running'
          ? t('stats.series.runningError')
          : code === 'session_open'
            ? t('stats.series.sessionOpenError')
            : t('stats.series.declareFailed')
      setFailure(errorMessage(err, fallback))
    }
  }
  return (
    <Box component="form" onSubmit={(e) => void submit(e)} aria-labelledby="declare-series">
      <Typography variant="subtitle1" component="h3" id="declare-series" sx={{ mb: 1 }}>
        {t('stats.series.formHeading')}
      </Typography>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <OutlinedTextField
          label={t('stats.series.sessionsLabel')}
          value={sessions}
          onChange={(e) => setSessions(e.target.value)}
          type="number"
          helperText={n === null ? t('stats.series.sessionsInvalid') : undefined}
          htmlInput={{ min: 5, max: 1000, step: 1, inputMode: 'numeric' }}
          sx={{ width: '100%', maxWidth: 320 }}
        />
        <Box>
          <Typography variant="subtitle2" component="p" id="series-candidates">
            {t('stats.series.candidatesLabel')}
          </Typography>
          <ToggleButtonGroup
            exclusive
            aria-labelledby="series-candidates"
            value={candidates}
            onChange={(_e, next: 5 | 10 | null) => next && setCandidates(next)}
          >
            {([5, 10] as const).map((c) => (
              <ToggleButton key={c} value={c} sx={{ minWidth: 56, minHeight: 44 }}>
                {c}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        <OutlinedNativeSelect
          label={t('stats.series.judgingLabel')}
          value={judging}
          onChange={(e) => setJudging(e.target.value === 'analytic' ? 'analytic' : 'self')}
          sx={{ width: '100%', maxWidth: 320 }}
        >
          <option value="self">{t('stats.series.judgingSelf')}</option>
          <option value="analytic">{t('stats.series.judgingAnalytic')}</option>
        </OutlinedNativeSelect>
        {failure ? (
          <Alert severity="warning" sx={{ alignSelf: 'stretch' }}>
            {failure}
          </Alert>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          disabled={n === null || declaring.isLoading}
          sx={{ minHeight: 44 }}
        >
          {t('stats.series.declare')}
        </Button>
      </Stack>
    </Box>
  )
}

function SeriesCard() {
  const { t } = useTranslation('practice')
  const { data: series, error, isLoading } = useListPracticeSeriesQuery()
  return (
    <Card variant="outlined" component="section" aria-label={t('stats.series.region')}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('stats.series.heading')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, maxWidth: '75ch' }}>
          {t('stats.series.explanation')}
        </Typography>
        {isLoading ? (
          <CircularProgress size={24} aria-label={t('stats.series.loading')} />
        ) : error ? (
          <Alert severity="error">{errorMessage(error, t('stats.series.loadFailed'))}</Alert>
        ) : series && series.length > 0 ? (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
            {series.map((s) => (
              <SeriesItem key={s.id} series={s} />
            ))}
          </Box>
        ) : (
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t('stats.series.none')}
          </Typography>
        )}
        <SeriesForm />
      </CardContent>
    </Card>
  )
}

/** A history row's second line: when, where in sidereal time, and how it closed. */
function historyLine(
  t: TFunction<'practice'>,
  language: string,
  s: PracticeSessionSummary,
): string {
  const when = `${formatDateTime(language, s.startedAt)} · ${formatLst(s.lstHours)}`
  if (s.status === 'judged') {
    const figureOfMerit = fixed(language, s.figureOfMerit ?? 0)
    const outcome =
      s.analyticRank === undefined
        ? t('stats.historyJudged', { rank: s.rank, candidates: s.candidateCount, figureOfMerit })
        : t('stats.historyJudgedAnalytic', {
            rank: s.rank,
            analyticRank: s.analyticRank,
            candidates: s.candidateCount,
            figureOfMerit,
          })
    return `${when} · ${outcome}`
  }
  if (s.status === 'abandoned') {
    return `${when} · ${t('stats.status.abandoned', {
      date: s.abandonedAt ? formatDateTime(language, s.abandonedAt) : '—',
    })}`
  }
  return `${when} · ${t(`stats.status.${s.status}`)}`
}

export function PracticeStatsPage() {
  usePageMeta('practiceStats')
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const { status } = useAuth()
  const [params, setParams] = useSearchParams()
  const familiarity = familiarityIn(params.get('familiarity'))
  const setFamiliarity = (next: PracticeFamiliarity | undefined) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current)
        if (next) updated.set('familiarity', next)
        else updated.delete('familiarity')
        return updated
      },
      { replace: true },
    )
  const {
    data: stats,
    isLoading,
    error,
  } = useGetPracticeStatsQuery(status === 'signedIn' ? { familiarity } : skipToken)
  const [exportSessions, exporting] = useLazyExportPracticeSessionsQuery()
  const { toast } = useToast()
  const save = async (format: 'json' | 'csv') => {
    try {
      const text = await exportSessions({ format }).unwrap()
      const day = new Date().toISOString().slice(0, 10)
      download(
        text,
        `crv-practice-${day}.${format}`,
        format === 'csv' ? 'text/csv' : 'application/json',
      )
    } catch (err) {
      toast({
        title: t('stats.exportFailed'),
        description: errorMessage(err, t('stats.tryAgain')),
        variant: 'destructive',
      })
    }
  }
  if (status === 'signedOut') {
    return (
      <SignInPrompt
        title={t('stats.heading')}
        prompt={t('stats.signInPrompt')}
        signIn={t('stats.signIn')}
      />
    )
  }
  if (isLoading || status === 'restoring') {
    return (
      <PageContainer>
        <CircularProgress aria-label={t('stats.loading')} />
      </PageContainer>
    )
  }
  if (error || !stats) {
    return (
      <PageContainer>
        <Alert severity="error">{errorMessage(error, t('stats.loadFailed'))}</Alert>
      </PageContainer>
    )
  }
  const judged = stats.history.filter((h) => h.status === 'judged').reverse()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('stats.heading')}
      </Typography>
      <FamiliarityFilter value={familiarity} onChange={setFamiliarity} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('stats.summary', { sessions: stats.sessions, judged: stats.judged })}
        {stats.abandoned > 0 ? ` ${t('stats.abandonedSummary', { count: stats.abandoned })}` : null}
      </Typography>
      <Stack spacing={3}>
        <Figures stats={stats} />
        {judged.length > 0 ? (
          <Card variant="outlined" component="section" aria-label={t('stats.overTimeRegion')}>
            <CardContent>
              <Typography variant="h6" component="h2">
                {t('stats.overTimeHeading')}
              </Typography>
              <LineChart
                height={260}
                xAxis={[
                  {
                    data: judged.map((_h, i) => i + 1),
                    scaleType: 'point',
                    label: t('stats.judgedSession'),
                  },
                ]}
                series={[
                  {
                    data: judged.map((h) => h.figureOfMerit ?? 0),
                    label: t('stats.figureOfMerit'),
                  },
                  {
                    data: judged.map((h) => (h.rank ? 1 / h.rank : 0)),
                    label: t('stats.inverseRank'),
                  },
                ]}
              />
            </CardContent>
          </Card>
        ) : null}
        <Card variant="outlined" component="section" aria-label={t('stats.byColumnRegion')}>
          <CardContent>
            <Typography variant="h6" component="h2">
              {t('stats.byColumnHeading')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('stats.byColumnExplanation')}
            </Typography>
            <BarChart
              height={260}
              xAxis={[
                {
                  data: stats.byCategory.map((c) =>
                    isColumn(c.category) ? t(`stats.categories.${c.category}`) : c.category,
                  ),
                  scaleType: 'band',
                },
              ]}
              series={[
                {
                  data: stats.byCategory.map((c) => c.sessions),
                  label: t('stats.sessionsUsing'),
                },
                {
                  data: stats.byCategory.map((c) => c.matched),
                  label: t('stats.matchedTarget'),
                },
              ]}
            />
          </CardContent>
        </Card>
        <SiderealCard sidereal={stats.sidereal} />
        <SeriesCard />
        <Box component="section" aria-label={t('stats.historyRegion')}>
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              {t('stats.historyHeading')}
            </Typography>
            {EXPORT_FORMATS.map((format) => (
              <Button
                key={format}
                startIcon={<DownloadIcon />}
                disabled={exporting.isFetching}
                onClick={() => void save(format)}
                sx={{ minHeight: 44 }}
              >
                {t('stats.export', { format: format.toUpperCase() })}
              </Button>
            ))}
          </Stack>
          <List>
            {stats.history.map((s) => (
              <ListItem key={s.id} disablePadding>
                <ListItemButton component={RouterLink} to={practiceSessionPath(s.id)}>
                  {s.imageUrl ? (
                    <Box component="img" src={s.imageUrl} alt="" sx={thumbnail} />
                  ) : (
                    <Box aria-hidden sx={thumbnail} />
                  )}
                  <ListItemText
                    primary={`${s.trn}${s.title ? ` · ${s.title}` : ''}`}
                    secondary={historyLine(t, language, s)}
                  />
                  {s.status === 'abandoned' ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={t('stats.abandoned')}
                      sx={{ ml: 1 }}
                    />
                  ) : null}
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      </Stack>
    </PageContainer>
  )
}
