import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx'
import type { Descriptor } from '../../../lib/api/generated.ts'

type ConfirmDeleteDialogProps = {
  /** The word to delete; null closes the dialog. */
  descriptor: Descriptor | null
  deleting: boolean
  onCancel: () => void
  onConfirm: (descriptor: Descriptor) => void
}

/** 'Delete Custom Descriptor': asks before a word of the user's own is deleted for good. */
export function ConfirmDeleteDialog({
  descriptor,
  deleting,
  onCancel,
  onConfirm,
}: ConfirmDeleteDialogProps) {
  const { t } = useTranslation('descriptors')
  return (
    <ConfirmDialog
      open={descriptor !== null}
      title={t('confirmDelete.title')}
      cancelLabel={t('cancel')}
      confirmLabel={t('delete')}
      destructive
      busy={deleting}
      onCancel={onCancel}
      onConfirm={() => {
        if (descriptor) onConfirm(descriptor)
      }}
    >
      {t('confirmDelete.text', { word: descriptor?.word ?? '' })}
    </ConfirmDialog>
  )
}
