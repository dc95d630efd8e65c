import DeleteIcon from '@mui/icons-material/DeleteOutlined'
import VisibilityIcon from '@mui/icons-material/Visibility'
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff'
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Descriptor } from '../../../lib/api/generated.ts'
import { isOwnDescriptor, type Category, type CategoryWords } from '../catalog.ts'
import { useDeleteDescriptor, useToggleHidden } from '../use-descriptor-actions.ts'
import { ConfirmDeleteDialog } from './confirm-delete-dialog.tsx'
import { WordChip, WordList } from './word-chip.tsx'
import { DialogCloseButton } from '../../../components/dialog-close-button.tsx'

type AllDescriptorsDialogProps = {
  open: boolean
  /** Kept while the dialog closes, so its title does not change under the animation. */
  category: Category | null
  words: CategoryWords | undefined
  loading: boolean
  userId: string | null
  onClose: () => void
}

/** 'All Descriptors - {name}': every word of a category, with hide/unhide and delete. */
export function AllDescriptorsDialog({
  open,
  category,
  words,
  loading,
  userId,
  onClose,
}: AllDescriptorsDialogProps) {
  const { t } = useTranslation(['descriptors', 'common'])
  const titleId = useId()
  const theme = useTheme()
  // Read at once (no second render): it only shapes the dialog, which a pre-rendered page never has open.
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  const { toggleHidden, togglingId } = useToggleHidden()
  const { remove, deletingId } = useDeleteDescriptor()
  const [confirming, setConfirming] = useState<Descriptor | null>(null)

  const all = words?.all ?? []
  const hiddenCount = all.filter((d) => d.hidden).length

  function actionFor(descriptor: Descriptor) {
    if (isOwnDescriptor(descriptor, userId)) {
      return {
        label: t('deleteWord', { word: descriptor.word }),
        icon: <DeleteIcon fontSize="small" />,
        onClick: () => setConfirming(descriptor),
        busy: deletingId === descriptor.id,
      }
    }
    if (descriptor.isCustom) return undefined
    return descriptor.hidden
      ? {
          label: t('allDescriptors.unhide', { word: descriptor.word }),
          icon: <VisibilityIcon fontSize="small" />,
          onClick: () => void toggleHidden(descriptor),
          busy: togglingId === descriptor.id,
        }
      : {
          label: t('allDescriptors.hide', { word: descriptor.word }),
          icon: <VisibilityOffIcon fontSize="small" />,
          onClick: () => void toggleHidden(descriptor),
          busy: togglingId === descriptor.id,
        }
  }

  return (
    <Dialog
      open={open && category !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {t('allDescriptors.title', { name: category?.name ?? '' })}
      </DialogTitle>
      <DialogCloseButton onClick={onClose} />
      <DialogContent dividers>
        {loading && all.length === 0 ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('loadingDescriptors')} />
          </Box>
        ) : all.length === 0 ? (
          <Typography color="text.secondary">{t('allDescriptors.empty')}</Typography>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {t('allDescriptors.summary', { count: all.length, hidden: hiddenCount })}
            </Typography>
            <WordList label={t('allDescriptors.listLabel', { name: category?.name ?? '' })}>
              {all.map((descriptor) => (
                <WordChip
                  key={descriptor.id}
                  word={descriptor.word}
                  note={descriptor.status === 'pending' ? t('pending') : undefined}
                  muted={descriptor.hidden}
                  action={actionFor(descriptor)}
                />
              ))}
            </WordList>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:close')}</Button>
      </DialogActions>
      <ConfirmDeleteDialog
        descriptor={confirming}
        deleting={confirming !== null && deletingId === confirming.id}
        onCancel={() => setConfirming(null)}
        onConfirm={(descriptor) => {
          void remove(descriptor).then(() => setConfirming(null))
        }}
      />
    </Dialog>
  )
}
