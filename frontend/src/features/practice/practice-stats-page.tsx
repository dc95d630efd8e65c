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
import { count } from '../../lib/text/count.ts'
import { BarChart } from '@mui/x-charts/BarChart'
import { LineChart } from '@mui/x-charts/LineChart'
import { skipToken } from '@reduxjs/toolkit/query'
import { Link as RouterLink } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { practiceSessionPath } from '../../config/paths.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { useGetPracticeStatsQuery, useLazyExportPracticeSessionsQuery } from './api.ts'
import type { PracticeStats } from './api.ts'
import { formatLst } from './practice-session-page.tsx'

const fixed = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits))

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  URL.revokeObjectURL(url)
}

function Figures({ stats }: { stats: PracticeStats }) {
  if (!stats.significanceShown) {
    return (
      <Alert severity="info">
        {stats.judged} judged {stats.judged === 1 ? 'session' : 'sessions'} so far.{' '}
        {10 - stats.judged} more before the statistics mean anything: with few sessions, chance
        alone easily looks like a talent — or like none.
      </Alert>
    )
  }
  const p = stats.hitsP
  return (
    <Card variant="outlined">
      <CardContent>
        <Grid container spacing={2}>
          {[
            ['Sum of ranks', `${stats.sumOfRanks} (chance: ${stats.expectedSumOfRanks})`],
            ['z score', fixed(stats.z)],
            ['Effect size (z/√n)', fixed(stats.effectSize)],
            ['First-place hits', `${stats.hits} (chance: ${stats.expectedHits.toFixed(1)})`],
            [
              'Probability of as many hits by chance',
              p === null ? '—' : p < 0.001 ? '< 0.001' : p.toFixed(3),
            ],
            ['Mean figure of merit', fixed(stats.meanFigureOfMerit)],
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
          What chance looks like: with no information, the target's rank is equally likely to be any
          place, so z stays near 0 (between −2 and 2 in 95 of 100 series) and first places come at
          about one in N. A positive z means your targets ranked better than chance.
        </Typography>
      </CardContent>
    </Card>
  )
}

export function PracticeStatsPage() {
  usePageMeta('practiceStats')
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
        title: 'Export failed',
        description: errorMessage(err, 'Please try again.'),
        variant: 'destructive',
      })
    }
  }
  if (status === 'signedOut') {
    return (
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          Practice statistics
        </Typography>
        <Alert
          severity="info"
          action={
            <Button color="inherit" onClick={openSignIn}>
              Sign in
            </Button>
          }
        >
          Sign in to keep your practice sessions and see your statistics.
        </Alert>
      </PageContainer>
    )
  }
  if (isLoading || status === 'restoring') {
    return (
      <PageContainer>
        <CircularProgress aria-label="Loading your statistics" />
      </PageContainer>
    )
  }
  if (error || !stats) {
    return (
      <PageContainer>
        <Alert severity="error">
          {errorMessage(error, 'Your statistics could not be loaded.')}
        </Alert>
      </PageContainer>
    )
  }
  const judged = stats.history.filter((h) => h.status === 'judged').reverse()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        Practice statistics
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {count(stats.sessions, 'session')}, {stats.judged} judged.
      </Typography>
      <Stack spacing={3}>
        <Figures stats={stats} />
        {judged.length > 0 ? (
          <Card variant="outlined" component="section" aria-label="Over time">
            <CardContent>
              <Typography variant="h6" component="h2">
                Figure of merit and rank over time
              </Typography>
              <LineChart
                height={260}
                xAxis={[
                  {
                    data: judged.map((_h, i) => i + 1),
                    scaleType: 'point',
                    label: 'Judged session',
                  },
                ]}
                series={[
                  { data: judged.map((h) => h.figureOfMerit ?? 0), label: 'Figure of merit' },
                  { data: judged.map((h) => (h.rank ? 1 / h.rank : 0)), label: '1 / rank' },
                ]}
              />
            </CardContent>
          </Card>
        ) : null}
        <Card variant="outlined" component="section" aria-label="By sensory column">
          <CardContent>
            <Typography variant="h6" component="h2">
              Strengths by sensory column
            </Typography>
            <Typography variant="body2" color="text.secondary">
              How often a column you wrote in named something the target has.
            </Typography>
            <BarChart
              height={260}
              xAxis={[{ data: stats.byCategory.map((c) => c.category), scaleType: 'band' }]}
              series={[
                { data: stats.byCategory.map((c) => c.sessions), label: 'Sessions using it' },
                { data: stats.byCategory.map((c) => c.matched), label: 'Matched the target' },
              ]}
            />
          </CardContent>
        </Card>
        <Card variant="outlined" component="section" aria-label="By sidereal time">
          <CardContent>
            <Typography variant="h6" component="h2">
              By local sidereal time
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Spottiswoode (1997) found larger effects within an hour of 13.5 h LST. Your sessions
              inside and outside that window — reported, never promised.
            </Typography>
            <Table size="small" sx={{ maxWidth: 520 }}>
              <TableHead>
                <TableRow>
                  <TableCell>Window</TableCell>
                  <TableCell align="right">Sessions</TableCell>
                  <TableCell align="right">Mean rank</TableCell>
                  <TableCell align="right">Hits</TableCell>
                  <TableCell align="right">z</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(
                  [
                    ['12:30–14:30 LST', stats.sidereal.inside],
                    ['Other times', stats.sidereal.outside],
                  ] as const
                ).map(([label, w]) => (
                  <TableRow key={label}>
                    <TableCell>{label}</TableCell>
                    <TableCell align="right">{w.sessions}</TableCell>
                    <TableCell align="right">{fixed(w.meanRank)}</TableCell>
                    <TableCell align="right">{w.hits}</TableCell>
                    <TableCell align="right">{fixed(w.z)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {stats.sidereal.unknown > 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {stats.sidereal.unknown} judged sessions have no sidereal time (no location).
              </Typography>
            ) : null}
          </CardContent>
        </Card>
        <Box component="section" aria-label="History">
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              Session history
            </Typography>
            {(['json', 'csv'] as const).map((format) => (
              <Button
                key={format}
                startIcon={<DownloadIcon />}
                disabled={exporting.isFetching}
                onClick={() => void save(format)}
                sx={{ minHeight: 44 }}
              >
                Export {format.toUpperCase()}
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
                  secondary={`${new Date(s.startedAt).toLocaleString()} · ${formatLst(s.lstHours)} · ${
                    s.status === 'judged'
                      ? `rank ${s.rank} of ${s.candidateCount}, figure of merit ${fixed(s.figureOfMerit ?? 0)}`
                      : s.status
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
