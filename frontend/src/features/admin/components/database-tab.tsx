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
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { SerializedError } from '@reduxjs/toolkit'
import i18next from 'i18next'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx'
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
import { formatBytes, formatNumber, formatSubmitted, shortId } from '../format.ts'

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
  const { t } = useTranslation('admin')
  return (
    <Section title={t('database.services.title')}>
      {health ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {Object.entries(health.services).map(([name, s]) => (
            <Chip
              key={name}
              color={s.status === 'up' ? 'success' : 'error'}
              label={
                s.status === 'up'
                  ? t('database.services.up', { name, latency: s.latencyMs })
                  : t('database.services.down', { name })
              }
            />
          ))}
        </Stack>
      ) : isFetching ? (
        <CircularProgress size={24} aria-label={t('database.services.checking')} />
      ) : (
        <Typography color="error">{t('database.services.unavailable')}</Typography>
      )}
      <Button
        size="small"
        startIcon={<RefreshIcon />}
        sx={{ mt: 1 }}
        onClick={() => void refetch()}
      >
        {t('database.services.checkAgain')}
      </Button>
    </Section>
  )
}

function ObjectStorageSection() {
  const { data, error } = useGetStorageUsageQuery(undefined, { refetchOnMountOrArgChange: true })
  const { t, i18n } = useTranslation('admin')
  return (
    <Section title={t('database.objectStorage.title')}>
      {data ? (
        <>
          <Typography>
            {t('database.objectStorage.summary', {
              objects: data.objects,
              size: formatBytes(data.bytes, i18n.language),
              where: t(
                data.driver === 's3' ? 'database.objectStorage.s3' : 'database.objectStorage.local',
              ),
            })}
          </Typography>
          {data.areas.map((a) => (
            <Typography key={a.prefix} variant="body2" color="text.secondary">
              {t('database.objectStorage.area', {
                prefix: a.prefix,
                objects: a.objects,
                size: formatBytes(a.bytes, i18n.language),
              })}
            </Typography>
          ))}
        </>
      ) : error ? (
        <Typography color="text.secondary">{t('database.unavailable')}</Typography>
      ) : (
        <CircularProgress size={24} aria-label={t('database.objectStorage.loading')} />
      )}
    </Section>
  )
}

function QueueSection() {
  const { data, error } = useGetSpeechQueueQuery()
  const { t } = useTranslation('admin')
  return (
    <Section title={t('database.queue.title')}>
      {data ? (
        <Typography>
          {t('database.queue.summary', {
            waiting: data.waiting,
            active: data.active,
            failed: data.failed,
            workers: data.workers,
            mode: data.mode,
          })}
        </Typography>
      ) : error ? (
        <Typography color="text.secondary">{t('database.unavailable')}</Typography>
      ) : (
        <CircularProgress size={24} aria-label={t('database.queue.loading')} />
      )}
    </Section>
  )
}

function AnalyticsTable({ window }: { window: AnalyticsWindow }) {
  const { t, i18n } = useTranslation('admin')
  return (
    <Box sx={{ flex: 1, minWidth: 260 }}>
      <Typography variant="subtitle1" component="h4">
        {t('database.usage.window', { days: window.days })}
      </Typography>
      <Typography variant="body2">
        {t('database.usage.summary', {
          pageViews: window.totalPageViews,
          sessions: window.tachistoscope.sessions,
          showAgain: window.tachistoscope.showAgain,
          completed: window.tachistoscope.completed,
        })}
      </Typography>
      <Table size="small" aria-label={t('database.usage.tableLabel', { days: window.days })}>
        <TableHead>
          <TableRow>
            <TableCell>{t('database.usage.route')}</TableCell>
            <TableCell align="right">{t('database.usage.views')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {window.pageViews.slice(0, 15).map((p) => (
            <TableRow key={p.path}>
              <TableCell>{p.path}</TableCell>
              <TableCell align="right">{formatNumber(p.views, i18n.language)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  )
}

function AnalyticsSection() {
  const { data, error } = useGetAnalyticsSummaryQuery()
  const { t } = useTranslation('admin')
  return (
    <Section title={t('database.usage.title')}>
      {data ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
          {data.windows.map((w) => (
            <AnalyticsTable key={w.days} window={w} />
          ))}
        </Stack>
      ) : error ? (
        <Typography color="error">{errorMessage(error, t('database.usage.loadFailed'))}</Typography>
      ) : (
        <CircularProgress size={24} aria-label={t('database.usage.loading')} />
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

/** The keys of each action's confirmation (translated when shown). */
const confirmations = {
  seed: {
    title: 'database.maintenance.seed.title',
    text: 'database.maintenance.seed.text',
    label: 'database.maintenance.seed.confirm',
    failed: 'database.maintenance.seed.failed',
  },
  optimize: {
    title: 'database.maintenance.optimize.title',
    text: 'database.maintenance.optimize.text',
    label: 'database.maintenance.optimize.confirm',
    failed: 'database.maintenance.optimize.failed',
  },
  export: {
    title: 'database.maintenance.export.title',
    text: 'database.maintenance.export.text',
    label: 'database.maintenance.export.confirm',
    failed: 'database.maintenance.export.failed',
  },
} as const satisfies Record<Action, Record<'title' | 'text' | 'label' | 'failed', string>>

function ActionsSection() {
  const [confirming, setConfirming] = useState<Action | null>(null)
  const [format, setFormat] = useState<'csv' | 'json'>('csv')
  const [result, setResult] = useState<string | null>(null)
  const [seed, seedState] = useSeedDatabaseMutation()
  const [optimize, optimizeState] = useOptimizeTablesMutation()
  const [exportAll, exportState] = useLazyExportAllDescriptorsQuery()
  const { toast } = useToast()
  const { t } = useTranslation('admin')
  const busy = seedState.isLoading || optimizeState.isLoading || exportState.isFetching

  async function run(action: Action) {
    try {
      let summary: string
      if (action === 'seed') {
        const r = await seed().unwrap()
        summary = i18next.t('admin:database.maintenance.seed.done', {
          added: r.added,
          changed: r.changed,
          unchanged: r.unchanged,
          concepts: r.concepts,
          categories: r.categories,
        })
      } else if (action === 'optimize') {
        const r = await optimize().unwrap()
        summary = i18next.t('admin:database.maintenance.optimize.done', {
          tables: r.tables,
          schemas: r.schemas.join(', '),
        })
      } else {
        const text = await exportAll({ format }).unwrap()
        const date = new Date().toISOString().slice(0, 10)
        download(
          text,
          `crv_descriptors_${date}.${format}`,
          format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
        )
        summary = i18next.t('admin:database.maintenance.export.done', {
          format: format.toUpperCase(),
        })
      }
      setResult(summary)
      toast({ title: i18next.t('admin:toast.success'), description: summary, variant: 'success' })
    } catch (err) {
      toast({
        title: i18next.t('admin:toast.error'),
        description: errorMessage(err, i18next.t(`admin:${confirmations[action].failed}`)),
        variant: 'destructive',
      })
    } finally {
      setConfirming(null)
    }
  }

  return (
    <Section title={t('database.maintenance.title')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button variant="outlined" onClick={() => setConfirming('seed')}>
          {t(confirmations.seed.title)}
        </Button>
        <Button variant="outlined" onClick={() => setConfirming('optimize')}>
          {t(confirmations.optimize.title)}
        </Button>
        <Button variant="outlined" onClick={() => setConfirming('export')}>
          {t(confirmations.export.title)}
        </Button>
      </Stack>
      {result ? (
        <Alert severity="success" sx={{ mt: 2 }} role="status">
          {result}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t(confirmations[confirming].title) : ''}
        cancelLabel={t('confirmDialog.cancel')}
        confirmLabel={confirming ? t(confirmations[confirming].label) : ''}
        busy={busy}
        extra={
          confirming === 'export' ? (
            <RadioGroup
              row
              aria-label={t('database.maintenance.export.format')}
              value={format}
              onChange={(e) => setFormat(e.target.value === 'json' ? 'json' : 'csv')}
              sx={{ mt: 1 }}
            >
              <FormControlLabel
                value="csv"
                control={<Radio />}
                label={t('database.maintenance.export.csv')}
              />
              <FormControlLabel
                value="json"
                control={<Radio />}
                label={t('database.maintenance.export.json')}
              />
            </RadioGroup>
          ) : null
        }
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void run(confirming)
        }}
      >
        {confirming ? t(confirmations[confirming].text) : ''}
      </ConfirmDialog>
    </Section>
  )
}

/** The database and the services, as they are now: every figure is read from the server. */
export function DatabaseTab() {
  const { data, error, isLoading } = useGetAdminStatsQuery(undefined, {
    refetchOnMountOrArgChange: true,
  })
  const { t, i18n } = useTranslation('admin')
  const language = i18n.language
  return (
    <Stack spacing={2}>
      <HealthSection />
      <ActionsSection />
      {isLoading ? (
        <CircularProgress aria-label={t('database.loading')} />
      ) : error ? (
        <Alert severity="error">{errorMessage(error, t('database.loadFailed'))}</Alert>
      ) : data ? (
        <>
          <Section title={t('database.storage.title')}>
            <Typography>
              {t('database.storage.size', { size: formatBytes(data.databaseBytes, language) })}
            </Typography>
            {data.schemas.map((s) => (
              <Typography key={s.schema} variant="body2" color="text.secondary">
                {s.schema}: {formatBytes(s.bytes, language)}
              </Typography>
            ))}
          </Section>
          <ObjectStorageSection />
          <Section title={t('database.tables.title')}>
            <Table size="small" aria-label={t('database.tables.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('database.tables.table')}</TableCell>
                  <TableCell align="right">{t('database.tables.rows')}</TableCell>
                  <TableCell align="right">{t('database.tables.size')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.tables.map((table) => (
                  <TableRow key={`${table.schema}.${table.table}`}>
                    <TableCell>
                      {table.schema}.{table.table}
                    </TableCell>
                    <TableCell align="right">{formatNumber(table.rows, language)}</TableCell>
                    <TableCell align="right">{formatBytes(table.bytes, language)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Section>
          {data.recentActions.length > 0 ? (
            <Section title={t('database.recent.title')}>
              {data.recentActions.map((a) => (
                <Typography key={`${a.at}-${a.action}`} variant="body2">
                  {t('database.recent.entry', {
                    when: formatSubmitted(a.at, language),
                    action: a.action,
                    user: shortId(a.userId),
                    summary: a.summary,
                  })}
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
