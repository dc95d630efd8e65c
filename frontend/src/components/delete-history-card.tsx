import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined'
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material'
import { useState } from 'react'
import { useDeleteTrainingHistoryMutation } from '../lib/api/generated.ts'
import { errorMessage } from '../lib/api/errors.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { useToast } from './toast/index.ts'

/** The words of one page's history deletion, translated by the page (each keeps its own keys). */
export type DeleteHistoryTexts = {
  button: string
  confirmTitle: string
  confirmText: string
  confirmLabel: string
  cancel: string
  done: string
  /** Under `done`, when the page says what comes next. */
  doneText?: string
  failed: string
  /** Under `failed` when the server gives no reason. */
  tryAgain: string
}

type DeleteHistoryCardProps = {
  texts: DeleteHistoryTexts
  /**
   * /settings: a card among the other settings, with this heading and what is deleted and what
   * stays. Without it (/progress) the button alone, with a bin, under the figures it deletes.
   */
  heading?: { title: string; text: string }
}

/**
 * Deletes the user's training history (every session and every review with its schedule) after
 * a confirmation, then says so in a toast. The cached history and review figures are read again
 * by the mutation's tag.
 */
export function DeleteHistoryCard({ texts, heading }: DeleteHistoryCardProps) {
  const { toast } = useToast()
  const [deleteHistory, deleting] = useDeleteTrainingHistoryMutation()
  const [confirming, setConfirming] = useState(false)
  const onDelete = async () => {
    const result = await deleteHistory()
    setConfirming(false)
    if ('error' in result) {
      toast({
        title: texts.failed,
        description: errorMessage(result.error, texts.tryAgain),
        variant: 'destructive',
      })
      return
    }
    toast({ title: texts.done, description: texts.doneText, variant: 'success' })
  }
  const dialog = (
    <ConfirmDialog
      open={confirming}
      title={texts.confirmTitle}
      cancelLabel={texts.cancel}
      confirmLabel={texts.confirmLabel}
      destructive
      confirmVariant="text"
      busy={deleting.isLoading}
      onCancel={() => setConfirming(false)}
      onConfirm={() => void onDelete()}
    >
      {texts.confirmText}
    </ConfirmDialog>
  )
  if (!heading) {
    return (
      <Box>
        <Button
          color="error"
          variant="outlined"
          startIcon={<DeleteOutlineIcon />}
          onClick={() => setConfirming(true)}
        >
          {texts.button}
        </Button>
        {dialog}
      </Box>
    )
  }
  return (
    <Card variant="outlined" component="section" aria-label={heading.title}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {heading.title}
        </Typography>
        <Typography color="text.secondary">{heading.text}</Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
          {texts.button}
        </Button>
      </CardActions>
      {dialog}
    </Card>
  )
}
