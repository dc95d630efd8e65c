import RefreshIcon from '@mui/icons-material/Refresh'
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormControlLabel,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material'
import { count } from '../../../lib/text/count.ts'
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { SerializedError } from '@reduxjs/toolkit'
import { useState, type ReactNode } from 'react'
import { useToast } from '../../../components/toast/index.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { AnalyticsWindow, GatewayHealth } from '../../../lib/api/generated.ts'
import {
  useGetAdminStatsQuery,
  useGetAnalyticsSummaryQuery,
  useGetHealthQuery,
  useGetSpeechQueueQuery,
  useGetStorageUsageQuery,
  useLazyExportAllDescriptorsQuery,
  useOptimizeTablesMutation,
  useSeedDatabaseMutation,
} from '../api.ts'
import { formatBytes, formatSubmitted, shortId } from '../format.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'

type Action = 'seed' | 'optimize' | 'export'

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  )
}

/** The gateway answers 503 with the same body when a service is down. */
function healthOf(
  data: GatewayHealth | undefined,
  error: FetchBaseQueryError | SerializedError | undefined,
): GatewayHealth | undefined {
  if (data) return data
  const body = error && 'data' in error ? (error.data as Partial<GatewayHealth>) : undefined
  return body?.services ? (body as GatewayHealth) : undefined
}

function HealthSection() {
  const { data, error, isFetching, refetch } = useGetHealthQuery()
  const health = healthOf(data, error)
  return (
    <Section title="Services">
      {health ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {Object.entries(health.services).map(([name, s]) => (
            <Chip
              key={name}
              color={s.status === 'up' ? 'success' : 'error'}
              label={`${name}: ${s.status === 'up' ? `up (${s.latencyMs} ms)` : 'down'}`}
            />
          ))}
        </Stack>
      ) : isFetching ? (
        <CircularProgress size={24} aria-label="Checking services" />
      ) : (
        <Typography color="error">Health unavailable</Typography>
      )}
      <Button
        size="small"
        startIcon={<RefreshIcon />}
        sx={{ mt: 1 }}
        onClick={() => void refetch()}
      >
        Check again
      </Button>
    </Section>
  )
}

function ObjectStorageSection() {
  const { data, error } = useGetStorageUsageQuery(undefined, { refetchOnMountOrArgChange: true })
  return (
    <Section title="Object storage">
      {data ? (
        <>
          <Typography>
            {data.objects.toLocaleString('en')} objects · {formatBytes(data.bytes)} (
            {data.driver === 's3' ? 'S3 bucket' : 'local files'})
          </Typography>
          {data.areas.map((a) => (
            <Typography key={a.prefix} variant="body2" color="text.secondary">
              {a.prefix}: {a.objects.toLocaleString('en')} objects, {formatBytes(a.bytes)}
            </Typography>
          ))}
        </>
      ) : error ? (
        <Typography color="text.secondary">unavailable</Typography>
      ) : (
        <CircularProgress size={24} aria-label="Loading object storage usage" />
      )}
    </Section>
  )
}

function QueueSection() {
  const { data, error } = useGetSpeechQueueQuery()
  return (
    <Section title="Speech queue">
      {data ? (
        <Typography>
          {data.waiting} waiting · {data.active} active · {data.failed} failed · {data.workers}{' '}
          worker{data.workers === 1 ? '' : 's'} ({data.mode})
        </Typography>
      ) : error ? (
        <Typography color="text.secondary">unavailable</Typography>
      ) : (
        <CircularProgress size={24} aria-label="Loading the speech queue" />
      )}
    </Section>
  )
}

function AnalyticsTable({ window }: { window: AnalyticsWindow }) {
  return (
    <Box sx={{ flex: 1, minWidth: 260 }}>
      <Typography variant="subtitle1" component="h4">
        Last {window.days} days
      </Typography>
      <Typography variant="body2">
        {window.totalPageViews} page views · {window.tachistoscope.sessions} tachistoscope sessions
        ({window.tachistoscope.showAgain} show again, {window.tachistoscope.completed} completed)
      </Typography>
      <Table size="small" aria-label={`Page views, last ${window.days} days`}>
        <TableHead>
          <TableRow>
            <TableCell>Route</TableCell>
            <TableCell align="right">Views</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {window.pageViews.slice(0, 15).map((p) => (
            <TableRow key={p.path}>
              <TableCell>{p.path}</TableCell>
              <TableCell align="right">{p.views}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  )
}

function AnalyticsSection() {
  const { data, error } = useGetAnalyticsSummaryQuery()
  return (
    <Section title="Usage">
      {data ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          {data.windows.map((w) => (
            <AnalyticsTable key={w.days} window={w} />
          ))}
        </Stack>
      ) : error ? (
        <Typography color="error">{errorMessage(error, 'Failed to load usage')}</Typography>
      ) : (
        <CircularProgress size={24} aria-label="Loading usage" />
      )}
    </Section>
  )
}

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  URL.revokeObjectURL(url)
}

const confirmations: Record<Action, { title: string; text: string; label: string }> = {
  seed: {
    title: 'Seed Database',
    text: 'Load the shipped vocabulary again? Shipped words deleted since are restored and corrected ones updated; nothing users created is touched.',
    label: 'Seed',
  },
  optimize: {
    title: 'Optimize Tables',
    text: 'Run VACUUM ANALYZE on every table of the app? It reclaims space and refreshes query statistics; the app stays usable.',
    label: 'Optimize',
  },
  export: {
    title: 'Export Data',
    text: 'Download every descriptor in every language, users’ submissions included.',
    label: 'Export',
  },
}

function ActionsSection() {
  const [confirming, setConfirming] = useState<Action | null>(null)
  const [format, setFormat] = useState<'csv' | 'json'>('csv')
  const [result, setResult] = useState<string | null>(null)
  const [seed, seedState] = useSeedDatabaseMutation()
  const [optimize, optimizeState] = useOptimizeTablesMutation()
  const [exportAll, exportState] = useLazyExportAllDescriptorsQuery()
  const { toast } = useToast()
  const busy = seedState.isLoading || optimizeState.isLoading || exportState.isFetching

  async function run(action: Action) {
    try {
      let summary: string
      if (action === 'seed') {
        const r = await seed().unwrap()
        summary = `Seed complete: ${count(r.added, 'descriptor')} added, ${r.changed} changed, ${r.unchanged} unchanged (${count(r.concepts, 'concept')} in ${count(r.categories, 'category', 'categories')}).`
      } else if (action === 'optimize') {
        const r = await optimize().unwrap()
        summary = `Optimized ${r.tables} tables in ${r.schemas.join(', ')}.`
      } else {
        const text = await exportAll({ format }).unwrap()
        const date = new Date().toISOString().slice(0, 10)
        download(
          text,
          `crv_descriptors_${date}.${format}`,
          format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
        )
        summary = `Exported every descriptor as ${format.toUpperCase()}.`
      }
      setResult(summary)
      toast({ title: 'Success', description: summary, variant: 'success' })
    } catch (err) {
      toast({
        title: 'Error',
        description: errorMessage(err, `${confirmations[action].title} failed`),
        variant: 'destructive',
      })
    } finally {
      setConfirming(null)
    }
  }

  return (
    <Section title="Maintenance">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="outlined" onClick={() => setConfirming('seed')}>
          Seed Database
        </Button>
        <Button variant="outlined" onClick={() => setConfirming('optimize')}>
          Optimize Tables
        </Button>
        <Button variant="outlined" onClick={() => setConfirming('export')}>
          Export Data
        </Button>
      </Stack>
      {result ? (
        <Alert severity="success" sx={{ mt: 2 }} role="status">
          {result}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? confirmations[confirming].title : ''}
        confirmLabel={confirming ? confirmations[confirming].label : ''}
        busy={busy}
        extra={
          confirming === 'export' ? (
            <RadioGroup
              row
              aria-label="Export format"
              value={format}
              onChange={(e) => setFormat(e.target.value === 'json' ? 'json' : 'csv')}
              sx={{ mt: 1 }}
            >
              <FormControlLabel value="csv" control={<Radio />} label="CSV" />
              <FormControlLabel value="json" control={<Radio />} label="JSON" />
            </RadioGroup>
          ) : null
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void run(confirming)
        }}
      >
        {confirming ? confirmations[confirming].text : ''}
      </ConfirmDialog>
    </Section>
  )
}

/** The database and the services, as they are now: every figure is read from the server. */
export function DatabaseTab() {
  const { data, error, isLoading } = useGetAdminStatsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  })
  return (
    <Stack spacing={2}>
      <HealthSection />
      <ActionsSection />
      {isLoading ? (
        <CircularProgress aria-label="Loading database figures" />
      ) : error ? (
        <Alert severity="error">{errorMessage(error, 'Failed to load database figures')}</Alert>
      ) : data ? (
        <>
          <Section title="Storage">
            <Typography>Database size: {formatBytes(data.databaseBytes)}</Typography>
            {data.schemas.map((s) => (
              <Typography key={s.schema} variant="body2" color="text.secondary">
                {s.schema}: {formatBytes(s.bytes)}
              </Typography>
            ))}
          </Section>
          <ObjectStorageSection />
          <Section title="Tables">
            <Table size="small" aria-label="Tables">
              <TableHead>
                <TableRow>
                  <TableCell>Table</TableCell>
                  <TableCell align="right">Rows</TableCell>
                  <TableCell align="right">Size</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.tables.map((t) => (
                  <TableRow key={`${t.schema}.${t.table}`}>
                    <TableCell>
                      {t.schema}.{t.table}
                    </TableCell>
                    <TableCell align="right">{t.rows.toLocaleString('en')}</TableCell>
                    <TableCell align="right">{formatBytes(t.bytes)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Section>
          {data.recentActions.length > 0 ? (
            <Section title="Recent maintenance">
              {data.recentActions.map((a) => (
                <Typography key={`${a.at}-${a.action}`} variant="body2">
                  {formatSubmitted(a.at)} · {a.action} by {shortId(a.userId)}: {a.summary}
                </Typography>
              ))}
            </Section>
          ) : null}
        </>
      ) : null}
      <QueueSection />
      <AnalyticsSection />
    </Stack>
  )
}
