import DeleteIcon from '@mui/icons-material/DeleteOutlined'
import SearchIcon from '@mui/icons-material/Search'
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  FormControl,
  IconButton,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Toolbar,
  Typography,
} from '@mui/material'
import i18next from 'i18next'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { AdminOnly } from '../../components/access/index.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { errorMessage } from '../../lib/api/index.ts'
import type { Descriptor, DescriptorStatusFilter, LanguageFilter } from '../../lib/api/generated.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useBulkDeleteDescriptorsMutation,
  useDeleteDescriptorAllLanguagesMutation,
  useListAdminDescriptorsQuery,
} from './api.ts'
import { formatSubmitted, shortId, statusLabel } from './format.ts'

/** Admin list page size (spec §9). */
export const pageSize = 50
const statuses: DescriptorStatusFilter[] = ['all', 'system', 'approved', 'pending']
const languages: LanguageFilter[] = ['all', 'en', 'de', 'fr', 'es', 'it', 'ja', 'zh']

type Filters = { search: string; status: DescriptorStatusFilter; language: LanguageFilter }
type Pending = { kind: 'bulk'; ids: number[] } | { kind: 'one'; descriptor: Descriptor }

function DescriptorManagement() {
  const [draft, setDraft] = useState<Filters>({ search: '', status: 'all', language: 'all' })
  const [applied, setApplied] = useState<Filters>(draft)
  const [page, setPage] = useState(1)
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set())
  const [confirming, setConfirming] = useState<Pending | null>(null)
  const { toast } = useToast()
  const { t, i18n } = useTranslation('admin')
  const search = applied.search.trim()
  const { data, error, isFetching } = useListAdminDescriptorsQuery({
    page,
    limit: pageSize,
    // Only when set and not 'all' (spec §7).
    ...(search ? { search } : {}),
    ...(applied.status !== 'all' ? { status: applied.status } : {}),
    ...(applied.language !== 'all' ? { language: applied.language } : {}),
  })
  const [bulkDelete, bulkState] = useBulkDeleteDescriptorsMutation()
  const [deleteOne, oneState] = useDeleteDescriptorAllLanguagesMutation()

  const rows = data?.descriptors ?? []
  const total = data?.pagination.total ?? 0
  const totalPages = data?.pagination.totalPages ?? 0
  const allOnPage = rows.length > 0 && rows.every((d) => selected.has(d.id))
  const someOnPage = rows.some((d) => selected.has(d.id))

  // The selection outlives a search or a page turn: words found by different searches can go
  // together; the bar and the confirmation name how many are selected.
  function apply(next: Filters) {
    setDraft(next)
    setApplied(next)
    setPage(1)
  }

  // Typing searches once the typist pauses; Enter or Search at once. The lists apply at once.
  useEffect(() => {
    if (draft.search === applied.search) return
    const timer = setTimeout(() => {
      setApplied(draft)
      setPage(1)
    }, 400)
    return () => clearTimeout(timer)
  }, [draft, applied.search])

  function toggle(id: number) {
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  function toggleAll() {
    setSelected((current) => {
      const next = new Set(current)
      for (const d of rows) {
        if (allOnPage) next.delete(d.id)
        else next.add(d.id)
      }
      return next
    })
  }

  async function confirmDelete() {
    if (!confirming) return
    try {
      const deleted =
        confirming.kind === 'bulk'
          ? (await bulkDelete({ bulkDeleteRequest: { descriptorIds: confirming.ids } }).unwrap())
              .totalDeleted
          : (await deleteOne({ id: confirming.descriptor.id }).unwrap()).deletedCount
      toast({
        title: i18next.t('admin:toast.success'),
        description: i18next.t('admin:management.deleted', { count: deleted }),
        variant: 'success',
      })
      setSelected((current) => {
        if (confirming.kind === 'bulk') return new Set()
        const next = new Set(current)
        next.delete(confirming.descriptor.id)
        return next
      })
    } catch (err) {
      toast({
        title: i18next.t('admin:toast.error'),
        description: errorMessage(
          err,
          i18next.t(
            confirming.kind === 'bulk'
              ? 'admin:management.deleteManyFailed'
              : 'admin:management.deleteOneFailed',
          ),
        ),
        variant: 'destructive',
      })
    } finally {
      setConfirming(null)
    }
  }

  const first = (page - 1) * pageSize + 1
  return (
    <PageContainer>
      <Typography variant="h4" component="h1">
        {t('management.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t(
          search || applied.status !== 'all' || applied.language !== 'all'
            ? 'management.found'
            : 'management.inTotal',
          { count: total },
        )}
      </Typography>
      <Paper variant="outlined" sx={{ mt: 3, p: 2 }}>
        <Stack
          component="form"
          role="search"
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          onSubmit={(event) => {
            event.preventDefault()
            apply(draft)
          }}
        >
          <TextField
            label={t('management.search')}
            value={draft.search}
            onChange={(e) => setDraft({ ...draft, search: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 100 } }}
            sx={{ flexGrow: 1 }}
          />
          <FormControl sx={{ minWidth: 150 }}>
            <InputLabel id="status-filter">{t('management.status')}</InputLabel>
            <Select
              labelId="status-filter"
              label={t('management.status')}
              value={draft.status}
              onChange={(e) => apply({ ...draft, status: e.target.value })}
            >
              {statuses.map((s) => (
                <MenuItem key={s} value={s}>
                  {s === 'all' ? t('management.allStatuses') : statusLabel(s)}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <FormControl sx={{ minWidth: 150 }}>
            <InputLabel id="language-filter">{t('management.language')}</InputLabel>
            <Select
              labelId="language-filter"
              label={t('management.language')}
              value={draft.language}
              onChange={(e) => apply({ ...draft, language: e.target.value })}
            >
              {languages.map((l) => (
                <MenuItem key={l} value={l}>
                  {l === 'all' ? t('management.allLanguages') : l.toUpperCase()}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
            {t('management.searchButton')}
          </Button>
        </Stack>
      </Paper>

      {selected.size > 0 ? (
        <Toolbar
          aria-label={t('management.selection')}
          sx={{ mt: 2, bgcolor: 'action.selected', borderRadius: 1, gap: 2, flexWrap: 'wrap' }}
        >
          <Typography sx={{ flexGrow: 1 }}>
            {t('management.selected', { count: selected.size })}
          </Typography>
          <Button
            color="error"
            variant="contained"
            startIcon={<DeleteIcon />}
            onClick={() => setConfirming({ kind: 'bulk', ids: [...selected] })}
          >
            {t('management.deleteSelected')}
          </Button>
        </Toolbar>
      ) : null}

      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(error, t('management.loadFailed'))}
        </Alert>
      ) : null}

      <Paper variant="outlined" sx={{ mt: 2 }}>
        {data && rows.length === 0 ? (
          <Stack sx={{ alignItems: 'center', py: 6 }}>
            <Typography variant="h6" component="h2">
              {t('management.empty')}
            </Typography>
          </Stack>
        ) : !data && isFetching ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
            <CircularProgress aria-label={t('management.loading')} />
          </Box>
        ) : (
          <TableContainer>
            <Table
              size="small"
              aria-label={t('management.table')}
              aria-busy={isFetching}
              sx={{ '& th, & td': { px: { xs: 1, sm: 2 } } }}
            >
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={allOnPage}
                      indeterminate={someOnPage && !allOnPage}
                      onChange={toggleAll}
                      slotProps={{ input: { 'aria-label': t('management.selectAll') } }}
                    />
                  </TableCell>
                  <TableCell>{t('management.word')}</TableCell>
                  <TableCell sx={wide}>{t('management.language')}</TableCell>
                  <TableCell>{t('management.status')}</TableCell>
                  <TableCell sx={wide}>{t('management.type')}</TableCell>
                  <TableCell sx={wide}>{t('management.createdBy')}</TableCell>
                  <TableCell sx={wide}>{t('management.createdAt')}</TableCell>
                  <TableCell align="right" sx={{ position: 'relative' }}>
                    <Box component="span" sx={visuallyHidden}>
                      {t('management.delete')}
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((d) => (
                  <TableRow key={d.id} hover selected={selected.has(d.id)}>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={selected.has(d.id)}
                        onChange={() => toggle(d.id)}
                        slotProps={{
                          input: {
                            'aria-label': t('management.select', {
                              word: d.word,
                              language: d.language,
                            }),
                          },
                        }}
                      />
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 96 }}>
                      {d.word}
                      {/* On a phone the three narrow columns fold in under the word. */}
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        sx={{ display: { xs: 'block', md: 'none' } }}
                      >
                        {d.language.toUpperCase()} · {t(d.isCustom ? 'type.custom' : 'type.system')}{' '}
                        · {formatSubmitted(d.createdAt, i18n.language)}
                      </Typography>
                    </TableCell>
                    <TableCell sx={wide}>{d.language.toUpperCase()}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={statusLabel(d.status)}
                        color={
                          d.status === 'pending'
                            ? 'warning'
                            : d.status === 'approved'
                              ? 'success'
                              : 'default'
                        }
                        variant="outlined"
                      />
                    </TableCell>
                    <TableCell sx={wide}>{t(d.isCustom ? 'type.custom' : 'type.system')}</TableCell>
                    <TableCell sx={wide}>{shortId(d.createdBy)}</TableCell>
                    <TableCell sx={{ ...wide, whiteSpace: 'nowrap' }}>
                      {formatSubmitted(d.createdAt, i18n.language)}
                    </TableCell>
                    <TableCell align="right">
                      <IconButton
                        aria-label={t('management.deleteWord', { word: d.word })}
                        onClick={() => setConfirming({ kind: 'one', descriptor: d })}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Paper>

      {total > 0 ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between' }}
        >
          <Typography color="text.secondary">
            {t('management.showing', { first, last: first + rows.length - 1, count: total })}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button disabled={page <= 1 || isFetching} onClick={() => setPage(page - 1)}>
              {t('management.previous')}
            </Button>
            <Typography>{t('management.page', { page, pages: totalPages })}</Typography>
            <Button disabled={page >= totalPages || isFetching} onClick={() => setPage(page + 1)}>
              {t('management.next')}
            </Button>
          </Stack>
        </Stack>
      ) : null}

      <ConfirmDialog
        open={confirming !== null}
        title={t('management.confirmTitle')}
        cancelLabel={t('confirmDialog.cancel')}
        confirmLabel={t('management.confirmDelete')}
        destructive
        busy={bulkState.isLoading || oneState.isLoading}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirmDelete()}
      >
        {confirming?.kind === 'bulk'
          ? t('management.confirmMany', { count: confirming.ids.length })
          : t('management.confirmOne', {
              word: confirming?.kind === 'one' ? confirming.descriptor.word : '',
            })}
      </ConfirmDialog>
    </PageContainer>
  )
}

/** Columns shown from a desktop up (on a phone they fold in under the word). */
const wide = { display: { xs: 'none', md: 'table-cell' } } as const

// In strings: in `sx` a bare 1 means 100 %, which made this 'hidden' label as wide as the page.
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const

export function DescriptorManagementPage() {
  usePageMeta('descriptorManagement')
  return (
    <AdminOnly refusal="denied">
      <DescriptorManagement />
    </AdminOnly>
  )
}
