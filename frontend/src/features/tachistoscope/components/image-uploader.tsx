import UploadIcon from '@mui/icons-material/CloudUploadOutlined'
import {
  Box,
  Button,
  FormControl,
  InputLabel,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  Typography,
} from '@mui/material'
import { count } from '../../../lib/text/count.ts'
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit'
import { useId, useState } from 'react'
import { useDispatch } from 'react-redux'
import { useToast } from '../../../components/toast/index.ts'
import { api } from '../../../lib/api/generated.ts'
import { uploadCategoryLabels, type ImageCategory } from '../exposures.ts'
import { looksLikeImage, useImageUpload } from '../upload-image.ts'

type RowStatus = 'skipped' | 'waiting' | 'uploading' | 'done' | 'refused'

type Row = {
  key: string
  name: string
  status: RowStatus
  progress: number
  message: string | null
}

const statusText = (row: Row): string => {
  switch (row.status) {
    case 'skipped':
      return 'Skipped: not an image file'
    case 'waiting':
      return 'Waiting'
    case 'uploading':
      return `Uploading… ${Math.round(row.progress * 100)}%`
    case 'done':
      return row.message ?? 'Uploaded'
    case 'refused':
      return `Refused: ${row.message ?? 'upload failed'}`
  }
}

type ImageUploaderProps = {
  /**
   * Scale to at most 800×600 and store as JPEG quality 70 (the admin panel's path); otherwise the
   * original is stored (the tachistoscope-admin page's path).
   */
  fit: boolean
  defaultCategory?: ImageCategory
  /** Tells the caller which category the uploads went to (e.g. to show its gallery). */
  onCategoryChange?: (category: ImageCategory) => void
}

/** Category select, multi-file picker, an upload counter and per-file progress. */
export function ImageUploader({
  fit,
  defaultCategory = 'random',
  onCategoryChange,
}: ImageUploaderProps) {
  const labelId = useId()
  const inputId = useId()
  const { toast } = useToast()
  const upload = useImageUpload()
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>()
  const [category, setCategory] = useState<ImageCategory>(defaultCategory)
  const [rows, setRows] = useState<Row[]>([])
  const [busy, setBusy] = useState(false)

  const update = (key: string, change: Partial<Row>) =>
    setRows((all) => all.map((row) => (row.key === key ? { ...row, ...change } : row)))

  async function uploadAll(files: File[]) {
    const batch = Date.now()
    const next: Row[] = files.map((file, i) => ({
      key: `${batch}-${i}`,
      name: file.name,
      status: looksLikeImage(file) ? 'waiting' : 'skipped',
      progress: 0,
      message: null,
    }))
    setRows(next)
    const images = files.flatMap((file, i) =>
      next[i]?.status === 'waiting' ? [{ file, key: next[i].key }] : [],
    )
    if (images.length === 0) return
    setBusy(true)
    let failed = 0
    for (const { file, key } of images) {
      update(key, { status: 'uploading' })
      const outcome = await upload(file, { category, fit }, (progress) => update(key, { progress }))
      if (outcome.ok) {
        const { width, height } = outcome.image
        update(key, { status: 'done', progress: 1, message: `Uploaded (${width}×${height})` })
      } else {
        failed += 1
        update(key, { status: 'refused', message: outcome.message })
      }
    }
    setBusy(false)
    dispatch(api.util.invalidateTags(['media']))
    // Say what happened: how many went in, how many were refused (each row says why).
    const added = images.length - failed
    const where = uploadCategoryLabels[category]
    if (failed === 0) {
      toast({
        title: 'Upload Complete!',
        description: `${count(added, 'image')} added to ${where}.`,
        variant: 'success',
      })
    } else if (added === 0) {
      toast({
        title: 'Upload Failed',
        description: `${failed === 1 ? 'The image was' : `All ${failed} images were`} refused; the list says why.`,
        variant: 'destructive',
      })
    } else {
      toast({
        title: 'Partly Uploaded',
        description: `${count(added, 'image')} added to ${where}; ${failed} refused (the list says why).`,
        variant: 'destructive',
      })
    }
  }

  const considered = rows.filter((r) => r.status !== 'skipped')
  const finished = considered.filter((r) => r.status === 'done' || r.status === 'refused')
  const uploaded = rows.filter((r) => r.status === 'done').length
  const skipped = rows.length - considered.length

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
        <FormControl sx={{ minWidth: 200 }} size="small" disabled={busy}>
          <InputLabel id={labelId}>Category</InputLabel>
          <Select
            labelId={labelId}
            label="Category"
            value={category}
            onChange={(event) => {
              const value = event.target.value as ImageCategory
              setCategory(value)
              onCategoryChange?.(value)
            }}
          >
            {(Object.keys(uploadCategoryLabels) as ImageCategory[]).map((value) => (
              <MenuItem key={value} value={value}>
                {uploadCategoryLabels[value]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Button
          component="label"
          htmlFor={inputId}
          variant="contained"
          startIcon={<UploadIcon />}
          loading={busy}
          loadingPosition="start"
        >
          {busy ? 'Uploading...' : 'Choose Images'}
        </Button>
        <input
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          hidden
          disabled={busy}
          aria-label="Choose images to upload"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? [])
            // Cleared, so choosing the same files again uploads them again.
            event.target.value = ''
            if (files.length > 0) void uploadAll(files)
          }}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {fit
          ? 'Pictures are scaled to fit 800×600 and saved as JPEG.'
          : 'Pictures are stored as they are (JPEG, PNG, WebP or GIF), rotated upright and without camera data.'}
      </Typography>
      {rows.length > 0 && (
        <Box>
          <Typography role="status" aria-live="polite" sx={{ fontWeight: 600 }}>
            {uploaded} of {considered.length} {considered.length === 1 ? 'image' : 'images'}{' '}
            uploaded
            {skipped > 0 ? ` · ${skipped} skipped (not images)` : ''}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={considered.length ? (finished.length / considered.length) * 100 : 100}
            aria-label="Upload progress"
            sx={{ my: 1 }}
          />
          <List dense aria-label="Files">
            {rows.map((row) => (
              <ListItem key={row.key} disableGutters data-status={row.status}>
                <ListItemText
                  primary={row.name}
                  secondary={
                    <>
                      <Typography
                        component="span"
                        variant="body2"
                        color={
                          row.status === 'refused'
                            ? 'error'
                            : row.status === 'done'
                              ? 'success.main'
                              : 'text.secondary'
                        }
                      >
                        {statusText(row)}
                      </Typography>
                      {row.status === 'uploading' && (
                        <LinearProgress
                          variant="determinate"
                          value={row.progress * 100}
                          aria-label={`Uploading ${row.name}`}
                          sx={{ display: 'block', mt: 0.5 }}
                        />
                      )}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
    </Stack>
  )
}
