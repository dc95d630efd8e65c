import AddIcon from '@mui/icons-material/Add'
import UploadIcon from '@mui/icons-material/Upload'
import {
  Alert,
  Autocomplete,
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
import { useEffect, useState } from 'react'
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
  useSearchPracticeConceptsQuery,
  useUpdatePracticeTargetMutation,
} from './api.ts'
import type { PracticeTarget } from './api.ts'
import { practiceLanguage } from './preferences.ts'

type Licence = PracticeTarget['licence']
const LICENCES: { value: Licence; label: string }[] = [
  { value: 'CC0-1.0', label: 'CC0 1.0' },
  { value: 'public-domain', label: 'Public domain' },
  { value: 'CC-BY-4.0', label: 'CC BY 4.0 (attribution)' },
  { value: 'own', label: 'Our own' },
]

/** Tags as concept ids, searched in the vocabulary in any language. */
export function TagPicker({
  value,
  onChange,
}: {
  value: string[]
  onChange: (tags: string[]) => void
}) {
  const [input, setInput] = useState('')
  const [query, setQuery] = useState('')
  useEffect(() => {
    const t = setTimeout(() => setQuery(input.trim()), 200)
    return () => clearTimeout(t)
  }, [input])
  const language = practiceLanguage()
  const { data = [] } = useSearchPracticeConceptsQuery(
    query ? { q: query, language, limit: 15 } : skipToken,
  )
  const labels = new Map(data.map((c) => [c.conceptId, `${c.word} (${c.conceptId})`]))
  return (
    <Autocomplete
      multiple
      options={data.map((c) => c.conceptId)}
      filterOptions={(all) => all}
      value={value}
      inputValue={input}
      onInputChange={(_e, next) => setInput(next)}
      onChange={(_e, next) => onChange(next.slice(0, 50))}
      getOptionLabel={(id) => labels.get(id) ?? id}
      renderInput={(params) => (
        <TextField {...params} label="Tags (search the vocabulary in any language)" />
      )}
    />
  )
}

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
      created.push(...result.created.map((t) => t.title))
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
        `${created.length} of ${drafts.length} ${drafts.length === 1 ? 'target' : 'targets'} added.` +
          (refused.length > 0 ? ` Refused: ${refused.join('; ')}` : ''),
      )
      if (refused.length === 0) setDrafts([])
    } catch (err) {
      setReport(
        `${created.length} added before the upload failed: ${errorMessage(err, 'please try again.')}`,
      )
    }
  }
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Upload targets</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Button
            component="label"
            variant="outlined"
            startIcon={<UploadIcon />}
            sx={{ alignSelf: 'flex-start', minHeight: 44 }}
          >
            Choose images
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
                      label="Title"
                      value={d.title}
                      onChange={(e) => update(i, { title: e.target.value })}
                    />
                    <TextField
                      label="Feedback"
                      multiline
                      minRows={2}
                      value={d.feedback}
                      onChange={(e) => update(i, { feedback: e.target.value })}
                    />
                    <TagPicker value={d.tags} onChange={(tags) => update(i, { tags })} />
                    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                      <FormControl sx={{ minWidth: 180 }}>
                        <InputLabel id={`licence-${i}`}>Licence</InputLabel>
                        <Select
                          labelId={`licence-${i}`}
                          label="Licence"
                          value={d.licence}
                          onChange={(e) => update(i, { licence: e.target.value as Licence })}
                        >
                          {LICENCES.map((l) => (
                            <MenuItem key={l.value} value={l.value}>
                              {l.label}
                            </MenuItem>
                          ))}
                        </Select>
                      </FormControl>
                      <TextField
                        label="Source"
                        value={d.source}
                        onChange={(e) => update(i, { source: e.target.value })}
                        sx={{ flex: 1 }}
                      />
                    </Stack>
                    {d.licence === 'CC-BY-4.0' ? (
                      <TextField
                        label="Attribution"
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
        <Button onClick={onClose}>Close</Button>
        <Button
          variant="contained"
          disabled={drafts.length === 0 || creating.isLoading}
          startIcon={creating.isLoading ? <CircularProgress size={18} aria-hidden /> : null}
          onClick={() => void upload()}
        >
          Upload {drafts.length > 0 ? drafts.length : ''}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

/** Rendered with the target's id as its key, so a new target starts a new draft. */
function EditDialog({ target, onClose }: { target: PracticeTarget; onClose: () => void }) {
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
      setFailure(errorMessage(err, 'Could not save. Please try again.'))
    }
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Edit {draft.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Title"
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
          />
          <TextField
            label="Feedback"
            multiline
            minRows={3}
            value={draft.feedback}
            onChange={(e) => setDraft({ ...draft, feedback: e.target.value })}
          />
          <TagPicker value={draft.tags} onChange={(tags) => setDraft({ ...draft, tags })} />
          <TextField
            label="Frontloading hint (optional)"
            value={draft.frontloading ?? ''}
            onChange={(e) => setDraft({ ...draft, frontloading: e.target.value || null })}
          />
          <FormControl>
            <InputLabel id="edit-licence">Licence</InputLabel>
            <Select
              labelId="edit-licence"
              label="Licence"
              value={draft.licence}
              onChange={(e) => setDraft({ ...draft, licence: e.target.value as Licence })}
            >
              {LICENCES.map((l) => (
                <MenuItem key={l.value} value={l.value}>
                  {l.label}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <TextField
            label="Source"
            value={draft.source}
            onChange={(e) => setDraft({ ...draft, source: e.target.value })}
          />
          <TextField
            label="Attribution"
            value={draft.attribution ?? ''}
            onChange={(e) => setDraft({ ...draft, attribution: e.target.value || null })}
          />
          {failure ? <Alert severity="warning">{failure}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={updating.isLoading} onClick={() => void save()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  )
}

export function AdminTargetsPage() {
  usePageMeta('adminTargets')
  return (
    <AdminOnly refusal="denied">
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          Practice targets
        </Typography>
        <TargetsManager />
      </PageContainer>
    </AdminOnly>
  )
}

/** Pools and their targets: upload, edit, retire, delete. Also the admin panel's tab. */
export function TargetsManager() {
  const { toast } = useToast()
  const pools = useListPracticePoolsQuery()
  const [poolId, setPoolId] = useState<string>('')
  const chosen = poolId || pools.data?.[0]?.id || ''
  const targets = useListPracticeTargetsQuery(chosen ? { poolId: chosen } : skipToken)
  const [createPool] = useCreatePracticePoolMutation()
  const [update] = useUpdatePracticeTargetMutation()
  const [remove] = useDeletePracticeTargetMutation()
  const [uploading, setUploading] = useState(false)
  const [editing, setEditing] = useState<PracticeTarget | null>(null)
  const [newPool, setNewPool] = useState('')

  const addPool = async () => {
    try {
      const pool = await createPool({ practicePoolWrite: { name: newPool.trim() } }).unwrap()
      setPoolId(pool.id)
      setNewPool('')
    } catch (err) {
      toast({
        title: 'Pool not created',
        description: errorMessage(err, 'Please try again.'),
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
        description: errorMessage(err, 'Please try again.'),
        variant: 'destructive',
      })
    }
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <FormControl sx={{ minWidth: 220 }}>
          <InputLabel id="pool-label">Pool</InputLabel>
          <Select
            labelId="pool-label"
            label="Pool"
            value={chosen}
            onChange={(e) => setPoolId(String(e.target.value))}
          >
            {(pools.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name} ({p.activeTargets} active of {p.targets})
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          label="New pool name"
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
          Create pool
        </Button>
        <Button
          variant="contained"
          startIcon={<UploadIcon />}
          disabled={!chosen}
          onClick={() => setUploading(true)}
          sx={{ minHeight: 44 }}
        >
          Upload targets
        </Button>
      </Stack>
      {targets.isFetching && !targets.data ? (
        <CircularProgress aria-label="Loading targets" />
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
        }}
      >
        {(targets.data ?? []).map((t) => (
          <Card
            key={t.id}
            variant="outlined"
            aria-label={t.title}
            sx={{ opacity: t.retired ? 0.6 : 1 }}
          >
            <Box
              component="img"
              src={t.imageUrl}
              alt={t.title}
              sx={{ width: '100%', height: 160, objectFit: 'cover' }}
            />
            <CardContent>
              <Typography variant="subtitle1" component="h3">
                {t.title} {t.retired ? <Chip size="small" label="Retired" /> : null}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {t.licence} · shown in {t.sessions} {t.sessions === 1 ? 'session' : 'sessions'}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, my: 1 }}>
                {t.tags.slice(0, 8).map((tag) => (
                  <Chip key={tag} size="small" label={tag} variant="outlined" />
                ))}
              </Stack>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                <Button size="small" onClick={() => setEditing(t)} sx={{ minHeight: 44 }}>
                  Edit
                </Button>
                <Button
                  size="small"
                  onClick={() =>
                    void act(
                      () =>
                        update({
                          targetId: t.id,
                          practiceTargetUpdate: { retired: !t.retired },
                        }).unwrap(),
                      'Not changed',
                    )
                  }
                  sx={{ minHeight: 44 }}
                >
                  {t.retired ? 'Bring back' : 'Retire'}
                </Button>
                <Button
                  size="small"
                  color="error"
                  disabled={t.sessions > 0}
                  title={t.sessions > 0 ? 'Used by sessions: retire it instead' : undefined}
                  onClick={() => void act(() => remove({ targetId: t.id }).unwrap(), 'Not deleted')}
                  sx={{ minHeight: 44 }}
                >
                  Delete
                </Button>
              </Stack>
            </CardContent>
          </Card>
        ))}
      </Box>
      {chosen ? (
        <UploadDialog poolId={chosen} open={uploading} onClose={() => setUploading(false)} />
      ) : null}
      {editing ? (
        <EditDialog key={editing.id} target={editing} onClose={() => setEditing(null)} />
      ) : null}
    </Stack>
  )
}
