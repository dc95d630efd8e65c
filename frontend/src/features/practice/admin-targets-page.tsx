import AddIcon from '@mui/icons-material/Add'
import LibraryAddIcon from '@mui/icons-material/LibraryAdd'
import UploadIcon from '@mui/icons-material/Upload'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useCreatePracticePoolMutation,
  useCreatePracticeTargetsMutation,
  useDeletePracticeTargetMutation,
  useListPracticePoolsQuery,
  useListPracticeTargetsQuery,
  useUpdatePracticeTargetMutation,
} from './api.ts'
import type { PracticeTarget } from './api.ts'
import { ContributionModeration } from './components/contribution-moderation.tsx'
import { PoolHealthPanel } from './components/pool-health-panel.tsx'
import { TagPicker, licenceOptions, needsAttribution } from './components/target-fields.tsx'
import type { Licence } from './components/target-fields.tsx'
import { TargetImportDialog } from './components/target-import-dialog.tsx'

interface Draft {
  file: File
  image: string
  title: string
  feedback: string
  tags: string[]
  licence: Licence
  source: string
  attribution: string
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })

function UploadDialog({
  poolId,
  open,
  onClose,
}: {
  poolId: string
  open: boolean
  onClose: () => void
}) {
  const { t } = useTranslation(['practice', 'common'])
  const [drafts, setDrafts] = useState<Draft[]>([])
  const [create, creating] = useCreatePracticeTargetsMutation()
  const [report, setReport] = useState<string | null>(null)
  const pick = async (files: FileList | null) => {
    const list = [...(files ?? [])].slice(0, 50)
    setDrafts(
      await Promise.all(
        list.map(async (file) => ({
          file,
          image: await readAsDataUrl(file),
          title: file.name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' '),
          feedback: '',
          tags: [],
          licence: 'own' as Licence,
          source: '',
          attribution: '',
        })),
      ),
    )
    setReport(null)
  }
  const update = (i: number, patch: Partial<Draft>) =>
    setDrafts((d) => d.map((x, j) => (j === i ? { ...x, ...patch } : x)))
  const upload = async () => {
    const created: string[] = []
    const refused: string[] = []
    // Requests of at most ~18 MB each, under the operation's body limit.
    let batch: Draft[] = []
    let size = 0
    const send = async () => {
      if (batch.length === 0) return
      const result = await create({
        practiceTargetsCreate: {
          poolId,
          targets: batch.map((d) => ({
            image: d.image,
            fileName: d.file.name.slice(0, 200),
            title: d.title.trim() || d.file.name,
            feedback: d.feedback.trim() || d.title.trim() || d.file.name,
            tags: d.tags,
            licence: d.licence,
            source: d.source,
            attribution: d.attribution.trim() || null,
          })),
        },
      }).unwrap()
      created.push(...result.created.map((target) => target.title))
      refused.push(...result.refused.map((r) => `${r.fileName ?? `#${r.index + 1}`}: ${r.message}`))
      batch = []
      size = 0
    }
    try {
      for (const draft of drafts) {
        if (size + draft.image.length > 18_000_000) await send()
        batch.push(draft)
        size += draft.image.length
      }
      await send()
      setReport(
        t('targets.added', { created: created.length, total: drafts.length }) +
          (refused.length > 0 ? ` ${t('targets.refused', { list: refused.join('; ') })}` : ''),
      )
      if (refused.length === 0) setDrafts([])
    } catch (err) {
      setReport(
        t('targets.uploadFailed', {
          created: created.length,
          reason: errorMessage(err, t('targets.tryAgainLower')),
        }),
      )
    }
  }
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{t('targets.uploadTargets')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Button
            component="label"
            variant="outlined"
            startIcon={<UploadIcon />}
            sx={{ alignSelf: 'flex-start', minHeight: 44 }}
          >
            {t('targets.chooseImages')}
            <input
              hidden
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              multiple
              onChange={(e) => void pick(e.target.files)}
            />
          </Button>
          {drafts.map((d, i) => (
            <Card key={`${d.file.name}-${i}`} variant="outlined">
              <CardContent>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <Box
                    component="img"
                    src={d.image}
                    alt={d.file.name}
                    sx={{ width: 160, maxWidth: '100%', objectFit: 'contain' }}
                  />
                  <Stack spacing={1.5} sx={{ flex: 1, minWidth: 0 }}>
                    <TextField
                      label={t('targets.title')}
                      value={d.title}
                      onChange={(e) => update(i, { title: e.target.value })}
                    />
                    <TextField
                      label={t('targets.feedback')}
                      multiline
                      minRows={2}
                      value={d.feedback}
                      onChange={(e) => update(i, { feedback: e.target.value })}
                    />
                    <TagPicker value={d.tags} onChange={(tags) => update(i, { tags })} />
                    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                      <FormControl sx={{ minWidth: 180 }}>
                        <InputLabel id={`licence-${i}`}>{t('targets.licence')}</InputLabel>
                        <Select
                          labelId={`licence-${i}`}
                          label={t('targets.licence')}
                          value={d.licence}
                          onChange={(e) => update(i, { licence: e.target.value as Licence })}
                        >
                          {licenceOptions(t)}
                        </Select>
                      </FormControl>
                      <TextField
                        label={t('targets.source')}
                        value={d.source}
                        onChange={(e) => update(i, { source: e.target.value })}
                        sx={{ flex: 1 }}
                      />
                    </Stack>
                    {needsAttribution(d.licence) ? (
                      <TextField
                        label={t('targets.attribution')}
                        value={d.attribution}
                        onChange={(e) => update(i, { attribution: e.target.value })}
                      />
                    ) : null}
                  </Stack>
                </Stack>
              </CardContent>
            </Card>
          ))}
          {report ? (
            <Alert severity="info" role="status">
              {report}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:close')}</Button>
        <Button
          variant="contained"
          disabled={drafts.length === 0 || creating.isLoading}
          startIcon={creating.isLoading ? <CircularProgress size={18} aria-hidden /> : null}
          onClick={() => void upload()}
        >
          {drafts.length > 0
            ? t('targets.uploadCount', { count: drafts.length })
            : t('targets.upload')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/** Rendered with the target's id as its key, so a new target starts a new draft. */
function EditDialog({ target, onClose }: { target: PracticeTarget; onClose: () => void }) {
  const { t } = useTranslation('practice')
  const [update, updating] = useUpdatePracticeTargetMutation()
  const [draft, setDraft] = useState<PracticeTarget>(target)
  const [failure, setFailure] = useState<string | null>(null)
  const save = async () => {
    try {
      await update({
        targetId: draft.id,
        practiceTargetUpdate: {
          title: draft.title,
          feedback: draft.feedback,
          tags: draft.tags,
          licence: draft.licence,
          source: draft.source,
          attribution: draft.attribution,
          frontloading: draft.frontloading,
        },
      }).unwrap()
      onClose()
    } catch (err) {
      setFailure(errorMessage(err, t('targets.saveFailed')))
    }
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('targets.editTitle', { title: draft.title })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('targets.title')}
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <TextField
            label={t('targets.feedback')}
            multiline
            minRows={3}
            value={draft.feedback}
            onChange={(e) => setDraft({ ...draft, feedback: e.target.value })}
          />
          <TagPicker value={draft.tags} onChange={(tags) => setDraft({ ...draft, tags })} />
          <TextField
            label={t('targets.frontloading')}
            value={draft.frontloading ?? ''}
            onChange={(e) => setDraft({ ...draft, frontloading: e.target.value || null })}
          />
          <FormControl>
            <InputLabel id="edit-licence">{t('targets.licence')}</InputLabel>
            <Select
              labelId="edit-licence"
              label={t('targets.licence')}
              value={draft.licence}
              onChange={(e) => setDraft({ ...draft, licence: e.target.value as Licence })}
            >
              {licenceOptions(t)}
            </Select>
          </FormControl>
          <TextField
            label={t('targets.source')}
            value={draft.source}
            onChange={(e) => setDraft({ ...draft, source: e.target.value })}
          />
          <TextField
            label={t('targets.attribution')}
            value={draft.attribution ?? ''}
            onChange={(e) => setDraft({ ...draft, attribution: e.target.value || null })}
          />
          {failure ? <Alert severity="warning">{failure}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('targets.cancel')}</Button>
        <Button variant="contained" disabled={updating.isLoading} onClick={() => void save()}>
          {t('targets.save')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

export function AdminTargetsPage() {
  usePageMeta('adminTargets')
  const { t } = useTranslation('practice')
  return (
    <AdminOnly refusal="denied">
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('targets.heading')}
        </Typography>
        <TargetsManager />
      </PageContainer>
    </AdminOnly>
  )
}

/** Pools and their targets: upload, edit, retire, delete. Also the admin panel's tab. */
export function TargetsManager() {
  const { t } = useTranslation('practice')
  const { toast } = useToast()
  const pools = useListPracticePoolsQuery()
  const [poolId, setPoolId] = useState<string>('')
  const chosen = poolId || pools.data?.[0]?.id || ''
  const targets = useListPracticeTargetsQuery(chosen ? { poolId: chosen } : skipToken)
  const [createPool] = useCreatePracticePoolMutation()
  const [update] = useUpdatePracticeTargetMutation()
  const [remove] = useDeletePracticeTargetMutation()
  const [uploading, setUploading] = useState(false)
  const [importing, setImporting] = useState(false)
  const [editing, setEditing] = useState<PracticeTarget | null>(null)
  const [newPool, setNewPool] = useState('')

  const addPool = async () => {
    try {
      const pool = await createPool({ practicePoolWrite: { name: newPool.trim() } }).unwrap()
      setPoolId(pool.id)
      setNewPool('')
    } catch (err) {
      toast({
        title: t('targets.poolNotCreated'),
        description: errorMessage(err, t('targets.tryAgain')),
        variant: 'destructive',
      })
    }
  }
  const act = async (work: () => Promise<unknown>, failed: string) => {
    try {
      await work()
    } catch (err) {
      toast({
        title: failed,
        description: errorMessage(err, t('targets.tryAgain')),
        variant: 'destructive',
      })
    }
  }

  return (
    <Stack spacing={2}>
      <ContributionModeration />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        useFlexGap
        sx={{
          alignItems: { sm: 'center' },
          // A column that wraps would be as wide as its widest item: wrap rows only.
          flexWrap: { sm: 'wrap' },
          '& .MuiButton-root': { whiteSpace: 'nowrap' },
        }}
      >
        <FormControl sx={{ minWidth: 220 }}>
          <InputLabel id="pool-label">{t('targets.pool')}</InputLabel>
          <Select
            labelId="pool-label"
            label={t('targets.pool')}
            value={chosen}
            onChange={(e) => setPoolId(String(e.target.value))}
          >
            {(pools.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {t('targets.poolOption', {
                  name: p.name,
                  active: p.activeTargets,
                  total: p.targets,
                })}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          label={t('targets.newPoolName')}
          value={newPool}
          onChange={(e) => setNewPool(e.target.value)}
          size="small"
        />
        <Button
          startIcon={<AddIcon />}
          disabled={!newPool.trim()}
          onClick={() => void addPool()}
          sx={{ minHeight: 44 }}
        >
          {t('targets.createPool')}
        </Button>
        {/* The two ways of adding targets stay together, at the row's end. */}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ ml: { sm: 'auto' } }}>
          <Button
            variant="contained"
            startIcon={<UploadIcon />}
            disabled={!chosen}
            onClick={() => setUploading(true)}
            sx={{ minHeight: 44 }}
          >
            {t('targets.uploadTargets')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<LibraryAddIcon />}
            disabled={!chosen}
            onClick={() => setImporting(true)}
            sx={{ minHeight: 44 }}
          >
            {t('targets.importCollection')}
          </Button>
        </Stack>
      </Stack>
      {chosen ? <PoolHealthPanel poolId={chosen} /> : null}
      {targets.isFetching && !targets.data ? (
        <CircularProgress aria-label={t('targets.loadingTargets')} />
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
        }}
      >
        {(targets.data ?? []).map((target) => (
          <Card
            key={target.id}
            variant="outlined"
            aria-label={target.title}
            sx={{ opacity: target.retired ? 0.6 : 1 }}
          >
            <Box
              component="img"
              src={target.imageUrl}
              alt={target.title}
              sx={{ width: '100%', height: 160, objectFit: 'cover' }}
            />
            <CardContent>
              <Typography variant="subtitle1" component="h3">
                {target.title}{' '}
                {target.retired ? <Chip size="small" label={t('targets.retired')} /> : null}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t('targets.shownIn', { licence: target.licence, count: target.sessions })}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, my: 1 }}>
                {target.tags.slice(0, 8).map((tag) => (
                  <Chip key={tag} size="small" label={tag} variant="outlined" />
                ))}
              </Stack>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Button size="small" onClick={() => setEditing(target)} sx={{ minHeight: 44 }}>
                  {t('targets.edit')}
                </Button>
                <Button
                  size="small"
                  onClick={() =>
                    void act(
                      () =>
                        update({
                          targetId: target.id,
                          practiceTargetUpdate: { retired: !target.retired },
                        }).unwrap(),
                      t('targets.notChanged'),
                    )
                  }
                  sx={{ minHeight: 44 }}
                >
                  {target.retired ? t('targets.bringBack') : t('targets.retire')}
                </Button>
                <Button
                  size="small"
                  color="error"
                  disabled={target.sessions > 0}
                  title={target.sessions > 0 ? t('targets.usedBySessions') : undefined}
                  onClick={() =>
                    void act(
                      () => remove({ targetId: target.id }).unwrap(),
                      t('targets.notDeleted'),
                    )
                  }
                  sx={{ minHeight: 44 }}
                >
                  {t('targets.delete')}
                </Button>
              </Stack>
            </CardContent>
          </Card>
        ))}
      </Box>
      {chosen ? (
        <UploadDialog poolId={chosen} open={uploading} onClose={() => setUploading(false)} />
      ) : null}
      {chosen ? (
        <TargetImportDialog
          key={chosen}
          poolId={chosen}
          poolName={pools.data?.find((p) => p.id === chosen)?.name ?? ''}
          open={importing}
          onClose={() => setImporting(false)}
        />
      ) : null}
      {editing ? (
        <EditDialog key={editing.id} target={editing} onClose={() => setEditing(null)} />
      ) : null}
    </Stack>
  )
}
