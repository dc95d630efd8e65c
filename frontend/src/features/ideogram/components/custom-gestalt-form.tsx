import AddIcon from '@mui/icons-material/Add'
import { Button, CircularProgress, Paper, Stack, Typography } from '@mui/material'
import { useId, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { OutlinedTextField } from '../../../components/outlined-field.tsx'
import { customGestaltMaxLength } from '../gestalts.ts'

type CustomGestaltFormProps = {
  text: string
  onText: (text: string) => void
  onSubmit: () => void
  generating: boolean
  /** Known to be signed out: not while a stored session is still being restored. */
  signedOut: boolean
}

/** 'Custom Gestalt': a word or phrase of up to 30 characters, voiced by the server. */
export function CustomGestaltForm({
  text,
  onText,
  onSubmit,
  generating,
  signedOut,
}: CustomGestaltFormProps) {
  const { t } = useTranslation('ideogram')
  const titleId = useId()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (text.trim() && !generating) onSubmit()
  }
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {t('customForm.title')}
      </Typography>
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        onSubmit={submit}
        sx={{ gap: 1.5 }}
      >
        <OutlinedTextField
          label={t('customForm.label')}
          value={text}
          onChange={(event) => onText(event.target.value.slice(0, customGestaltMaxLength))}
          htmlInput={{ maxLength: customGestaltMaxLength }}
          helperText={
            signedOut ? t('customForm.signInHint') : `${text.length}/${customGestaltMaxLength}`
          }
          size="small"
          fullWidth
        />
        <Button
          type="submit"
          variant="contained"
          disabled={!text.trim() || generating}
          startIcon={
            generating ? (
              <CircularProgress size={16} color="inherit" aria-label={t('customForm.generating')} />
            ) : (
              <AddIcon />
            )
          }
          sx={{ flexShrink: 0, alignSelf: { sm: 'flex-start' }, minHeight: 40 }}
        >
          {generating ? t('customForm.generatingButton') : t('customForm.add')}
        </Button>
      </Stack>
    </Paper>
  )
}
