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
import type { TFunction } from 'i18next'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAppDispatch } from '../../../lib/store/index.ts'
import { useToast } from '../../../components/toast/index.ts'
import { tachistoscopeApi } from '../api.ts'
import { imageCategories, type ImageCategory } from '../exposures.ts'
import { looksLikeImage, useImageUpload } from '../upload-image.ts'

type RowStatus = 'skipped' | 'waiting' | 'uploading' | 'done' | 'refused'

type Row = {
  key: string
  name: string
  status: RowStatus
  progress: number
  /** Why the server refused the file (its own words). */
  message: string | null
  /** The stored picture's size, once uploaded. */
  size: { width: number; height: number } | null
}

const statusText = (t: TFunction<'tachistoscope'>, row: Row): string => {
  switch (row.status) {
    case 'skipped':
      return t('upload.status.skipped')
    case 'waiting':
      return t('upload.status.waiting')
    case 'uploading':
      return t('upload.status.uploading', { progress: row.progress })
    case 'done':
      return row.size
        ? t('upload.status.uploadedSize', {
            width: String(row.size.width),
            height: String(row.size.height),
          })
        : t('upload.status.uploaded')
    case 'refused':
      return t('upload.status.refused', { reason: row.message ?? t('upload.status.failed') })
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
  const { t } = useTranslation('tachistoscope')
  const upload = useImageUpload()
  const dispatch = useAppDispatch()
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
      size: null,
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
        update(key, { status: 'done', progress: 1, size: { width, height } })
      } else {
        failed += 1
        update(key, { status: 'refused', message: outcome.message })
      }
    }
    setBusy(false)
    dispatch(tachistoscopeApi.util.invalidateTags(['media']))
    // Say what happened: how many went in, how many were refused (each row says why).
    const added = images.length - failed
    const where = t(`categories.upload.${category}`)
    if (failed === 0) {
      toast({
        title: t('upload.completeTitle'),
        description: t('upload.complete', { count: added, category: where }),
        variant: 'success',
      })
    } else if (added === 0) {
      toast({
        title: t('upload.failedTitle'),
        description: t('upload.failed', { count: failed }),
        variant: 'destructive',
      })
    } else {
      toast({
        title: t('upload.partlyTitle'),
        description: t('upload.partly', { added, category: where, failed }),
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
          <InputLabel id={labelId}>{t('upload.category')}</InputLabel>
          <Select
            labelId={labelId}
            label={t('upload.category')}
            value={category}
            onChange={(event) => {
              const value = event.target.value as ImageCategory
              setCategory(value)
              onCategoryChange?.(value)
            }}
          >
            {imageCategories.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`categories.upload.${value}`)}
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
          {busy ? t('upload.uploading') : t('upload.chooseImages')}
        </Button>
        <input
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          hidden
          disabled={busy}
          aria-label={t('upload.chooseImagesLabel')}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? [])
            // Cleared, so choosing the same files again uploads them again.
            event.target.value = ''
            if (files.length > 0) void uploadAll(files)
          }}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {fit ? t('upload.fitHint') : t('upload.originalHint')}
      </Typography>
      {rows.length > 0 && (
        <Box>
          <Typography role="status" aria-live="polite" sx={{ fontWeight: 600 }}>
            {t('upload.progress', { uploaded, total: considered.length })}
            {skipped > 0 ? t('upload.skipped', { count: skipped }) : ''}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={considered.length ? (finished.length / considered.length) * 100 : 100}
            aria-label={t('upload.progressLabel')}
            sx={{ my: 1 }}
          />
          <List dense aria-label={t('upload.filesLabel')}>
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
                        {statusText(t, row)}
                      </Typography>
                      {row.status === 'uploading' && (
                        <LinearProgress
                          variant="determinate"
                          value={row.progress * 100}
                          aria-label={t('upload.uploadingFile', { name: row.name })}
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
