import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import DescriptionIcon from '@mui/icons-material/Description'
import HighlightOffIcon from '@mui/icons-material/HighlightOff'
import FactCheckIcon from '@mui/icons-material/FactCheck'
import ImageIcon from '@mui/icons-material/Image'
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd'
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  List,
  ListItem,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../../../lib/api/index.ts'
import { useImportPracticeTargetsMutation } from '../api.ts'
import type { PracticeImportReason, PracticeImportReport, PracticeImportRow } from '../api.ts'

/** What one request may carry: the operation's body limit is 25 MiB, base64 and JSON included. */
const MAX_SEND = 24_000_000

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })

type Filter = 'all' | 'accepted' | 'refused'

/** One reason a row is refused, in the interface's language, from its code and details. */
function ReasonText({ reason }: { reason: PracticeImportReason }) {
  const { t } = useTranslation('practice')
  const d = reason.details ?? {}
  const field = d.field ? t(`targets.import.fields.${d.field}` as 'targets.import.fields.file') : ''
  const text = t(`targets.import.reasons.${reason.code}`, {
    field,
    licence: d.licence ?? '',
    tags: (d.tags ?? []).join(', '),
    title: d.title ?? '',
    row: d.row ?? 0,
  })
  return (
    <Typography variant="body2" color="error" component="li" sx={{ ml: 2 }}>
      {text}
    </Typography>
  )
}

function RowItem({ row }: { row: PracticeImportRow }) {
  const { t } = useTranslation('practice')
  const refused = row.status === 'refused'
  return (
    <ListItem
      aria-label={t('targets.import.rowLabel', { row: row.row, title: row.title || row.file })}
      sx={{ display: 'block', px: 0, py: 1.5 }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 0.5, sm: 1.5 }}
        sx={{ alignItems: { sm: 'baseline' } }}
      >
        <Chip
          size="small"
          icon={refused ? <HighlightOffIcon /> : <CheckCircleIcon />}
          color={refused ? 'error' : 'success'}
          variant={row.status === 'added' ? 'filled' : 'outlined'}
          label={t(`targets.import.status.${row.status}`)}
          sx={{ alignSelf: 'flex-start', flexShrink: 0 }}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="subtitle2" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {row.title || t('targets.import.untitled')}
          </Typography>
          <Typography
            variant="caption"
            color="text.secondary"
            component="p"
            sx={{ overflowWrap: 'anywhere' }}
          >
            {t('targets.import.where', {
              row: row.row,
              file: row.file || t('targets.import.noFile'),
            })}
            {row.licence ? ` · ${row.licence}` : ''}
          </Typography>
          {!refused && row.tags.length > 0 ? (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
              {row.tags.map((tag) => (
                <Chip key={tag} size="small" variant="outlined" label={tag} />
              ))}
            </Stack>
          ) : null}
          {refused ? (
            <Box component="ul" sx={{ m: 0, mt: 0.5, p: 0 }}>
              {row.reasons.map((reason, i) => (
                <ReasonText key={`${reason.code}-${i}`} reason={reason} />
              ))}
            </Box>
          ) : null}
        </Box>
      </Stack>
    </ListItem>
  )
}

function Report({ report, poolName }: { report: PracticeImportReport; poolName: string }) {
  const { t } = useTranslation('practice')
  const [filter, setFilter] = useState<Filter>('all')
  const rows = report.rows.filter(
    (r) => filter === 'all' || (filter === 'refused') === (r.status === 'refused'),
  )
  const total = report.rows.length
  return (
    <Stack spacing={1.5}>
      <Alert
        severity={report.accepted === 0 ? 'warning' : report.dryRun ? 'info' : 'success'}
        role="status"
      >
        {report.dryRun
          ? report.accepted === 0
            ? t('targets.import.nothingToAdd', { total })
            : t('targets.import.summaryDryRun', {
                accepted: report.accepted,
                total,
                refused: report.refused,
              })
          : t('targets.import.summaryAdded', {
              added: report.added,
              pool: poolName,
              refused: report.refused,
            })}
      </Alert>
      {report.ignoredColumns.length > 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('targets.import.ignoredColumns', { list: report.ignoredColumns.join(', ') })}
        </Typography>
      ) : null}
      <ToggleButtonGroup
        size="small"
        exclusive
        value={filter}
        onChange={(_e, next: Filter | null) => next && setFilter(next)}
        aria-label={t('targets.import.show')}
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="all">{t('targets.import.filterAll', { count: total })}</ToggleButton>
        <ToggleButton value="accepted">
          {t(report.dryRun ? 'targets.import.filterAccepted' : 'targets.import.filterAdded', {
            count: report.accepted,
          })}
        </ToggleButton>
        <ToggleButton value="refused">
          {t('targets.import.filterRefused', { count: report.refused })}
        </ToggleButton>
      </ToggleButtonGroup>
      <List
        aria-label={t('targets.import.rows')}
        disablePadding
        sx={{ '& > li + li': { borderTop: 1, borderColor: 'divider' } }}
      >
        {rows.map((row) => (
          <RowItem key={row.row} row={row} />
        ))}
      </List>
    </Stack>
  )
}

/**
 * Imports a collection into a pool: a manifest (CSV or JSON) and the pictures it names. A check
 * (the server's dry run) comes first and shows row by row what would be added and what is
 * refused and why; the import itself then adds every accepted row at once.
 */
export function TargetImportDialog({
  poolId,
  poolName,
  open,
  onClose,
}: {
  poolId: string
  poolName: string
  open: boolean
  onClose: () => void
}) {
  const { t, i18n } = useTranslation(['practice', 'common'])
  const theme = useTheme()
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  const [manifest, setManifest] = useState<{ name: string; text: string } | null>(null)
  const [pictures, setPictures] = useState<{ name: string; data: string }[]>([])
  const [report, setReport] = useState<PracticeImportReport | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [send, sending] = useImportPracticeTargetsMutation()
  const [running, setRunning] = useState<'check' | 'import' | null>(null)

  /** The bytes that `characters` of base64 carry, in kB or MB. */
  const megabytes = (characters: number) => {
    const bytes = (characters * 3) / 4
    const unit = bytes < 1_000_000 ? 'kilobyte' : 'megabyte'
    return new Intl.NumberFormat(i18n.language, {
      style: 'unit',
      unit,
      maximumFractionDigits: unit === 'kilobyte' ? 0 : 1,
    }).format(bytes / (unit === 'kilobyte' ? 1_000 : 1_000_000))
  }
  const size = (manifest?.text.length ?? 0) + pictures.reduce((n, p) => n + p.data.length, 0)
  const tooLarge = size > MAX_SEND

  const chooseManifest = async (files: FileList | null) => {
    const file = files?.[0]
    if (!file) return
    setManifest({ name: file.name, text: await file.text() })
    setReport(null)
    setFailure(null)
  }
  const choosePictures = async (files: FileList | null) => {
    const list = [...(files ?? [])]
    setPictures(
      await Promise.all(
        list.map(async (file) => ({
          name: file.webkitRelativePath || file.name,
          data: await readAsDataUrl(file),
        })),
      ),
    )
    setReport(null)
    setFailure(null)
  }
  const run = async (dryRun: boolean) => {
    if (!manifest) return
    setRunning(dryRun ? 'check' : 'import')
    setFailure(null)
    try {
      setReport(
        await send({
          practiceImportRequest: { poolId, dryRun, manifest, files: pictures },
        }).unwrap(),
      )
    } catch (err) {
      setFailure(
        t('targets.import.failed', { reason: errorMessage(err, t('targets.tryAgainLower')) }),
      )
    } finally {
      setRunning(null)
    }
  }
  const startOver = () => {
    setManifest(null)
    setPictures([])
    setReport(null)
    setFailure(null)
  }
  const done = report !== null && !report.dryRun
  const canImport = report?.dryRun === true && report.accepted > 0

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      aria-labelledby="target-import-title"
    >
      <DialogTitle id="target-import-title" sx={{ pb: 1 }}>
        {t('targets.importCollection')}
        <Typography
          variant="body2"
          color="text.secondary"
          component="span"
          sx={{ display: 'block', overflowWrap: 'anywhere' }}
        >
          {t('targets.import.into', { pool: poolName })}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t('targets.import.intro')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button
              component="label"
              variant="outlined"
              startIcon={<DescriptionIcon />}
              disabled={sending.isLoading}
              sx={{ minHeight: 44, justifyContent: 'flex-start' }}
            >
              {manifest
                ? t('targets.import.manifestChosen', { name: manifest.name })
                : t('targets.import.chooseManifest')}
              <input
                hidden
                type="file"
                accept=".csv,.json,text/csv,application/json"
                aria-label={t('targets.import.chooseManifest')}
                onChange={(e) => void chooseManifest(e.target.files)}
              />
            </Button>
            <Button
              component="label"
              variant="outlined"
              startIcon={<ImageIcon />}
              disabled={sending.isLoading}
              sx={{ minHeight: 44, justifyContent: 'flex-start' }}
            >
              {pictures.length > 0
                ? t('targets.import.picturesChosen', {
                    count: pictures.length,
                    size: megabytes(size),
                  })
                : t('targets.import.choosePictures')}
              <input
                hidden
                type="file"
                multiple
                accept="image/jpeg,image/png,image/webp,image/gif"
                aria-label={t('targets.import.choosePictures')}
                onChange={(e) => void choosePictures(e.target.files)}
              />
            </Button>
          </Stack>
          {tooLarge ? (
            <Alert severity="warning">
              {t('targets.import.tooLarge', { size: megabytes(size), max: megabytes(MAX_SEND) })}
            </Alert>
          ) : null}
          {failure ? (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          ) : null}
          {running ? (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={20} aria-hidden />
              <Typography variant="body2">
                {running === 'check' ? t('targets.import.checking') : t('targets.import.importing')}
              </Typography>
            </Stack>
          ) : null}
          {report && !running ? (
            <>
              <Divider />
              <Report report={report} poolName={poolName} />
            </>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1, px: 3, py: 1.5 }}>
        {report ? (
          <Button onClick={startOver} disabled={sending.isLoading} sx={{ mr: 'auto' }}>
            {t('targets.import.startOver')}
          </Button>
        ) : null}
        <Button onClick={onClose}>{t('common:close')}</Button>
        {done ? null : canImport ? (
          <Button
            variant="contained"
            startIcon={<PlaylistAddIcon />}
            disabled={sending.isLoading || tooLarge}
            onClick={() => void run(false)}
          >
            {t('targets.import.importCount', { count: report?.accepted ?? 0 })}
          </Button>
        ) : (
          <Button
            variant="contained"
            startIcon={<FactCheckIcon />}
            disabled={!manifest || sending.isLoading || tooLarge}
            onClick={() => void run(true)}
          >
            {t('targets.import.check')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  )
}
