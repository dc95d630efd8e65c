import DeleteIcon from '@mui/icons-material/DeleteOutlined'
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  ImageList,
  ImageListItem,
  ImageListItemBar,
  Typography,
} from '@mui/material'
import { useId, useState } from 'react'
import { useToast } from '../../../components/toast/index.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import {
  useDeleteTachistoscopeImageMutation,
  useListTachistoscopeImagesQuery,
} from '../../../lib/api/generated.ts'
import type { TachistoscopeImage } from '../../../lib/api/generated.ts'
import type { ImageCategory } from '../exposures.ts'

type ImageGalleryProps = {
  category: ImageCategory
  /** The heading, e.g. 'Random Objects'. */
  title: string
}

/** A category's pictures with their names, each deletable after a confirmation. */
export function ImageGallery({ category, title }: ImageGalleryProps) {
  const headingId = useId()
  const { toast } = useToast()
  const { data, error, isLoading } = useListTachistoscopeImagesQuery({ category })
  const [remove, { isLoading: deleting }] = useDeleteTachistoscopeImageMutation()
  const [confirming, setConfirming] = useState<TachistoscopeImage | null>(null)

  async function confirmDelete(image: TachistoscopeImage) {
    try {
      await remove({ categoryOrId: image.id }).unwrap()
      toast({ title: 'Image Deleted!', description: image.filename, variant: 'success' })
    } catch (err) {
      toast({
        title: 'Delete Failed',
        description: errorMessage(err, 'The image could not be deleted. Please try again.'),
        variant: 'destructive',
      })
    } finally {
      setConfirming(null)
    }
  }

  let content
  if (isLoading) {
    content = <CircularProgress size={28} aria-label={`Loading ${title}`} />
  } else if (error) {
    content = (
      <Alert severity="error">{errorMessage(error, 'The pictures could not be loaded.')}</Alert>
    )
  } else if (!data || data.length === 0) {
    content = <Typography color="text.secondary">No images in this category yet.</Typography>
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
                  aria-label={`Delete ${image.filename}`}
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
      <ConfirmImageDelete
        image={confirming}
        deleting={deleting}
        onCancel={() => setConfirming(null)}
        onConfirm={(image) => void confirmDelete(image)}
      />
    </Box>
  )
}

function ConfirmImageDelete({
  image,
  deleting,
  onCancel,
  onConfirm,
}: {
  image: TachistoscopeImage | null
  deleting: boolean
  onCancel: () => void
  onConfirm: (image: TachistoscopeImage) => void
}) {
  const titleId = useId()
  const textId = useId()
  return (
    <Dialog
      open={image !== null}
      onClose={deleting ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>Delete Image</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          Are you sure you want to delete &ldquo;{image?.filename}&rdquo;? This action cannot be
          undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={deleting}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={deleting}
          onClick={() => {
            if (image) onConfirm(image)
          }}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  )
}
