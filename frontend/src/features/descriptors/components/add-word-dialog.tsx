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
import { useTranslation } from 'react-i18next'
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
  const { t, i18n } = useTranslation('descriptors')
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
      // The typed word stays in the field, to be corrected or tried again. The server words
      // these refusals in English; other interfaces say them in their own words.
      const refusal = (text: string) =>
        i18n.language === 'en' ? errorMessage(result.error, text) : text
      toast({
        title: t('addWord.errorTitle'),
        description:
          errorCode(result.error) === 'duplicate_descriptor'
            ? refusal(t('addWord.duplicate'))
            : errorCode(result.error) === 'descriptor_exists'
              ? refusal(t('addWord.exists'))
              : t('addWord.failed'),
        variant: 'destructive',
      })
      return
    }
    toast({
      title: t('addWord.addedTitle'),
      description: t('addWord.added', { word: result.data.word, category: category.name }),
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
      <DialogTitle id={titleId}>{t('addWord.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('addWord.intro', { category: category?.name ?? '' })}
        </DialogContentText>
        <TextField
          autoFocus
          fullWidth
          label={t('addWord.word')}
          value={word}
          onChange={(event) => setWord(event.target.value.slice(0, maxWordLength))}
          slotProps={{ htmlInput: { maxLength: maxWordLength, autoComplete: 'off' } }}
          disabled={isLoading}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          {t('cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={!trimmed} loading={isLoading}>
          {t('addWord.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
