import DownloadIcon from '@mui/icons-material/Download'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Grid,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { BarChart } from '@mui/x-charts/BarChart'
import { LineChart } from '@mui/x-charts/LineChart'
import { skipToken } from '@reduxjs/toolkit/query'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { practiceSessionPath } from '../../config/paths.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { useGetPracticeStatsQuery, useLazyExportPracticeSessionsQuery } from './api.ts'
import type { PracticeStats } from './api.ts'
import { fixed, formatDateTime, formatNumber, formatLst } from './format.ts'

/** The sensory columns the statistics name (the server's keys). */
const COLUMNS = [
  'colours',
  'textures',
  'temperatures',
  'sounds',
  'smells',
  'tastes',
  'luminance',
  'energetics',
  'dimensionals',
] as const
/** The window around 13.5 h LST the statistics compare (a time range, the same in every language). */
const SIDEREAL_WINDOW = '12:30–14:30 LST'

const EXPORT_FORMATS = ['json', 'csv'] as const

type ColumnKey = (typeof COLUMNS)[number]
const isColumn = (category: string): category is ColumnKey =>
  (COLUMNS as readonly string[]).includes(category)

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  URL.revokeObjectURL(url)
}

function Figures({ stats }: { stats: PracticeStats }) {
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  if (!stats.significanceShown) {
    return (
      <Alert severity="info">
        {t('stats.tooFew', { judged: stats.judged, remaining: 10 - stats.judged })}
      </Alert>
    )
  }
  const p = stats.hitsP
  return (
    <Card variant="outlined">
      <CardContent>
        <Grid container spacing={2}>
          {[
            [
              t('stats.sumOfRanks'),
              t('stats.withChance', {
                value: formatNumber(language, stats.sumOfRanks),
                expected: formatNumber(language, stats.expectedSumOfRanks),
              }),
            ],
            [t('stats.zScore'), fixed(language, stats.z)],
            [t('stats.effectSize'), fixed(language, stats.effectSize)],
            [
              t('stats.firstPlaceHits'),
              t('stats.withChance', {
                value: formatNumber(language, stats.hits),
                expected: fixed(language, stats.expectedHits, 1),
              }),
            ],
            [
              t('stats.hitsProbability'),
              p === null
                ? '—'
                : p < 0.001
                  ? `< ${fixed(language, 0.001, 3)}`
                  : fixed(language, p, 3),
            ],
            [t('stats.meanFigureOfMerit'), fixed(language, stats.meanFigureOfMerit)],
          ].map(([label, value]) => (
            <Grid size={{ xs: 6, md: 4 }} key={label}>
              <Typography variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="h6" component="p">
                {value}
              </Typography>
            </Grid>
          ))}
        </Grid>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('stats.chanceExplanation')}
        </Typography>
      </CardContent>
    </Card>
  )
}

export function PracticeStatsPage() {
  usePageMeta('practiceStats')
  const { t, i18n } = useTranslation('practice')
  const language = i18n.language
  const { status, openSignIn } = useAuth()
  const {
    data: stats,
    isLoading,
    error,
  } = useGetPracticeStatsQuery(status === 'signedIn' ? undefined : skipToken)
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
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('stats.heading')}
        </Typography>
        <Alert
          severity="info"
          action={
            <Button color="inherit" onClick={openSignIn}>
              {t('stats.signIn')}
            </Button>
          }
        >
          {t('stats.signInPrompt')}
        </Alert>
      </PageContainer>
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
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('stats.summary', { sessions: stats.sessions, judged: stats.judged })}
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
        <Card variant="outlined" component="section" aria-label={t('stats.bySiderealRegion')}>
          <CardContent>
            <Typography variant="h6" component="h2">
              {t('stats.bySiderealHeading')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('stats.siderealExplanation')}
            </Typography>
            <Table size="small" sx={{ maxWidth: 520 }}>
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
                    [SIDEREAL_WINDOW, stats.sidereal.inside],
                    [t('stats.otherTimes'), stats.sidereal.outside],
                  ] as const
                ).map(([label, w]) => (
                  <TableRow key={label}>
                    <TableCell>{label}</TableCell>
                    <TableCell align="right">{formatNumber(language, w.sessions)}</TableCell>
                    <TableCell align="right">{fixed(language, w.meanRank)}</TableCell>
                    <TableCell align="right">{formatNumber(language, w.hits)}</TableCell>
                    <TableCell align="right">{fixed(language, w.z)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {stats.sidereal.unknown > 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('stats.noSidereal', { count: stats.sidereal.unknown })}
              </Typography>
            ) : null}
          </CardContent>
        </Card>
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
                  primary={`${s.trn}${s.title ? ` · ${s.title}` : ''}`}
                  secondary={`${formatDateTime(language, s.startedAt)} · ${formatLst(s.lstHours)} · ${
                    s.status === 'judged'
                      ? t('stats.historyJudged', {
                          rank: s.rank,
                          candidates: s.candidateCount,
                          figureOfMerit: fixed(language, s.figureOfMerit ?? 0),
                        })
                      : t(`stats.status.${s.status}`)
                  }`}
                />
              </ListItemButton>
            ))}
          </List>
        </Box>
      </Stack>
    </PageContainer>
  )
}
