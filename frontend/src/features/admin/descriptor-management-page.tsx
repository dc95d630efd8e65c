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
import { useEffect, useState } from 'react'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { errorMessage } from '../../lib/api/index.ts'
import type { Descriptor, DescriptorStatusFilter, LanguageFilter } from '../../lib/api/generated.ts'
import { count } from '../../lib/text/count.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useBulkDeleteDescriptorsMutation,
  useDeleteDescriptorAllLanguagesMutation,
  useListAdminDescriptorsQuery,
} from './api.ts'
import { ConfirmDialog } from './components/confirm-dialog.tsx'
import { formatSubmitted, shortId } from './format.ts'

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
        title: 'Success',
        description: `Deleted ${count(deleted, 'descriptor')} across all languages`,
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
        title: 'Error',
        description: errorMessage(
          err,
          confirming.kind === 'bulk'
            ? 'Failed to delete descriptors'
            : 'Failed to delete descriptor',
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
        Descriptor Management
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {count(total, 'descriptor')}{' '}
        {search || applied.status !== 'all' || applied.language !== 'all' ? 'found' : 'in total'}
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
            label="Search descriptors"
            value={draft.search}
            onChange={(e) => setDraft({ ...draft, search: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 100 } }}
            sx={{ flexGrow: 1 }}
          />
          <FormControl sx={{ minWidth: 150 }}>
            <InputLabel id="status-filter">Status</InputLabel>
            <Select
              labelId="status-filter"
              label="Status"
              value={draft.status}
              onChange={(e) => apply({ ...draft, status: e.target.value })}
            >
              {statuses.map((s) => (
                <MenuItem key={s} value={s}>
                  {s === 'all' ? 'All statuses' : s}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <FormControl sx={{ minWidth: 150 }}>
            <InputLabel id="language-filter">Language</InputLabel>
            <Select
              labelId="language-filter"
              label="Language"
              value={draft.language}
              onChange={(e) => apply({ ...draft, language: e.target.value })}
            >
              {languages.map((l) => (
                <MenuItem key={l} value={l}>
                  {l === 'all' ? 'All languages' : l.toUpperCase()}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
            Search
          </Button>
        </Stack>
      </Paper>

      {selected.size > 0 ? (
        <Toolbar
          aria-label="Selected descriptors"
          sx={{ mt: 2, bgcolor: 'action.selected', borderRadius: 1, gap: 2, flexWrap: 'wrap' }}
        >
          <Typography sx={{ flexGrow: 1 }}>{selected.size} selected</Typography>
          <Button
            color="error"
            variant="contained"
            startIcon={<DeleteIcon />}
            onClick={() => setConfirming({ kind: 'bulk', ids: [...selected] })}
          >
            Delete Selected (All Languages)
          </Button>
        </Toolbar>
      ) : null}

      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(error, 'Failed to load descriptors')}
        </Alert>
      ) : null}

      <Paper variant="outlined" sx={{ mt: 2 }}>
        {data && rows.length === 0 ? (
          <Stack sx={{ alignItems: 'center', py: 6 }}>
            <Typography variant="h6" component="h2">
              No Descriptors Found
            </Typography>
          </Stack>
        ) : !data && isFetching ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
            <CircularProgress aria-label="Loading descriptors" />
          </Box>
        ) : (
          <TableContainer>
            <Table
              size="small"
              aria-label="Descriptors"
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
                      slotProps={{ input: { 'aria-label': 'Select all on this page' } }}
                    />
                  </TableCell>
                  <TableCell>Word</TableCell>
                  <TableCell sx={wide}>Language</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell sx={wide}>Type</TableCell>
                  <TableCell sx={wide}>Created By</TableCell>
                  <TableCell sx={wide}>Created At</TableCell>
                  <TableCell align="right" sx={{ position: 'relative' }}>
                    <Box component="span" sx={visuallyHidden}>
                      Delete
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
                        slotProps={{ input: { 'aria-label': `Select ${d.word} (${d.language})` } }}
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
                        {d.language.toUpperCase()} · {d.isCustom ? 'Custom' : 'System'} ·{' '}
                        {formatSubmitted(d.createdAt)}
                      </Typography>
                    </TableCell>
                    <TableCell sx={wide}>{d.language.toUpperCase()}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        label={d.status}
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
                    <TableCell sx={wide}>{d.isCustom ? 'Custom' : 'System'}</TableCell>
                    <TableCell sx={wide}>{shortId(d.createdBy)}</TableCell>
                    <TableCell sx={{ ...wide, whiteSpace: 'nowrap' }}>
                      {formatSubmitted(d.createdAt)}
                    </TableCell>
                    <TableCell align="right">
                      <IconButton
                        aria-label={`Delete ${d.word} in all languages`}
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
            Showing {first} to {first + rows.length - 1} of {count(total, 'descriptor')}
          </Typography>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button disabled={page <= 1 || isFetching} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Typography>
              Page {page} of {totalPages}
            </Typography>
            <Button disabled={page >= totalPages || isFetching} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </Stack>
        </Stack>
      ) : null}

      <ConfirmDialog
        open={confirming !== null}
        title="Delete in All Languages"
        confirmLabel="Delete"
        destructive
        busy={bulkState.isLoading || oneState.isLoading}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void confirmDelete()}
      >
        {confirming?.kind === 'bulk'
          ? `Delete ${count(confirming.ids.length, 'selected descriptor')} in all seven languages? Users' hides of these words go too. This cannot be undone.`
          : `Delete “${confirming?.kind === 'one' ? confirming.descriptor.word : ''}” in all seven languages? Users' hides of this word go too. This cannot be undone.`}
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
