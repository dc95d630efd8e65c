import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material'
import { useId, useState, type FormEvent } from 'react'
import { useToast } from '../../../components/toast/index.ts'
import { errorCode, errorMessage } from '../../../lib/api/index.ts'
import type { CreateDescriptorRequest, TrainingLanguage } from '../../../lib/api/generated.ts'
import { useCreateDescriptorMutation } from '../api.ts'
import type { Category } from '../catalog.ts'

/** Longest word the server takes (the contract's maxLength). */
export const maxWordLength = 60

type AddWordDialogProps = {
  open: boolean
  /** Kept while the dialog closes. */
  category: Category | null
  language: TrainingLanguage
  onClose: () => void
}

/** 'Add Custom Word': adds one word of the user's own to a category. */
export function AddWordDialog({ open, category, language, onClose }: AddWordDialogProps) {
  const titleId = useId()
  const { toast } = useToast()
  const [word, setWord] = useState('')
  const [createDescriptor, { isLoading }] = useCreateDescriptorMutation()
  const trimmed = word.trim()

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!category || !trimmed || isLoading) return
    const request: CreateDescriptorRequest =
      category.type === 'gestalt'
        ? { word: trimmed, language, gestaltId: category.id }
        : { word: trimmed, language, perceptionId: category.id }
    const result = await createDescriptor({ createDescriptorRequest: request })
    if (result.error) {
      // The typed word stays in the field, to be corrected or tried again.
      toast({
        title: 'Error',
        description:
          errorCode(result.error) === 'duplicate_descriptor'
            ? errorMessage(result.error, 'You already added this word to this category')
            : errorCode(result.error) === 'descriptor_exists'
              ? errorMessage(result.error, 'This word is already in this category')
              : 'Failed to add custom word. Please try again.',
        variant: 'destructive',
      })
      return
    }
    toast({
      title: 'Word Added',
      description: `"${result.data.word}" was added to ${category.name}. Others will see it once it has been reviewed.`,
      variant: 'success',
    })
    setWord('')
    onClose()
  }

  return (
    <Dialog
      open={open && category !== null}
      onClose={isLoading ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      slotProps={{ paper: { component: 'form', onSubmit: submit } }}
    >
      <DialogTitle id={titleId}>Add Custom Word</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Add your own descriptor to {category?.name}. You see it at once; others see it after
          review.
        </DialogContentText>
        <TextField
          autoFocus
          fullWidth
          label="Word"
          value={word}
          onChange={(event) => setWord(event.target.value.slice(0, maxWordLength))}
          slotProps={{ htmlInput: { maxLength: maxWordLength, autoComplete: 'off' } }}
          disabled={isLoading}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!trimmed} loading={isLoading}>
          Add Word
        </Button>
      </DialogActions>
    </Dialog>
  )
}
