import DeleteIcon from '@mui/icons-material/DeleteOutlined'
import {
  Alert,
  Box,
  CircularProgress,
  IconButton,
  ImageList,
  ImageListItem,
  ImageListItemBar,
  Typography,
} from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx'
import { useToast } from '../../../components/toast/index.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { TachistoscopeImage } from '../../../lib/api/generated.ts'
import { useDeleteTachistoscopeImageMutation, useListTachistoscopeImagesQuery } from '../api.ts'
import type { ImageCategory } from '../exposures.ts'

type ImageGalleryProps = {
  category: ImageCategory
  /** The heading, e.g. 'Random Objects'. */
  title: string
}

/** A category's pictures with their names, each deletable after a confirmation. */
export function ImageGallery({ category, title }: ImageGalleryProps) {
  const headingId = useId()
  const { t } = useTranslation('tachistoscope')
  const { toast } = useToast()
  const { data, error, isLoading } = useListTachistoscopeImagesQuery({ category })
  const [remove, { isLoading: deleting }] = useDeleteTachistoscopeImageMutation()
  const [confirming, setConfirming] = useState<TachistoscopeImage | null>(null)

  async function confirmDelete(image: TachistoscopeImage) {
    try {
      await remove({ categoryOrId: image.id }).unwrap()
      toast({ title: t('gallery.deletedTitle'), description: image.filename, variant: 'success' })
    } catch (err) {
      toast({
        title: t('gallery.deleteFailedTitle'),
        description: errorMessage(err, t('gallery.deleteFailed')),
        variant: 'destructive',
      })
    } finally {
      setConfirming(null)
    }
  }

  let content
  if (isLoading) {
    content = <CircularProgress size={28} aria-label={t('gallery.loading', { title })} />
  } else if (error) {
    content = <Alert severity="error">{errorMessage(error, t('gallery.loadFailed'))}</Alert>
  } else if (!data || data.length === 0) {
    content = <Typography color="text.secondary">{t('gallery.empty')}</Typography>
  } else {
    content = (
      <ImageList
        cols={4}
        gap={8}
        rowHeight={140}
        sx={{ m: 0, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr)) !important' }}
      >
        {data.map((image) => (
          <ImageListItem key={image.id}>
            <img
              src={image.dataUrl}
              alt={image.filename}
              loading="lazy"
              decoding="async"
              style={{ objectFit: 'cover', height: '100%', width: '100%' }}
            />
            <ImageListItemBar
              title={image.filename}
              actionIcon={
                <IconButton
                  aria-label={t('gallery.deleteImage', { name: image.filename })}
                  sx={{ color: 'common.white' }}
                  onClick={() => setConfirming(image)}
                >
                  <DeleteIcon />
                </IconButton>
              }
            />
          </ImageListItem>
        ))}
      </ImageList>
    )
  }

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {title}
        {data ? ` (${data.length})` : ''}
      </Typography>
      {content}
      <ConfirmDialog
        open={confirming !== null}
        title={t('gallery.confirmTitle')}
        cancelLabel={t('gallery.cancel')}
        confirmLabel={t('gallery.delete')}
        destructive
        busy={deleting}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void confirmDelete(confirming)
        }}
      >
        {t('gallery.confirmText', { name: confirming?.filename ?? '' })}
      </ConfirmDialog>
    </Box>
  )
}
