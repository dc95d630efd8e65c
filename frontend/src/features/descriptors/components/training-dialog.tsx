import ArrowForwardIcon from '@mui/icons-material/ArrowForward'
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  DialogActions,
  Stack,
  Typography,
} from '@mui/material'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Descriptor } from '../../../lib/api/generated.ts'
import type { Category } from '../catalog.ts'
import type { LanguageOption } from '../languages.ts'
import type { TrainingSession } from '../use-training-session.ts'
import { WordChip, WordList } from './word-chip.tsx'
import { SteadyButton } from '../../../components/steady-button.tsx'
import { CategoryChip, ShownWord, useDialogKeys, WordCard, WordDialog } from './word-dialog.tsx'

export type TrainingDialogProps = {
  session: TrainingSession
  language: LanguageOption
  categoryOf: (descriptor: Descriptor) => Category | undefined
  onNext: () => void
  onReveal: () => void
  onEnd: () => void
  /**
   * Controls for the word on show: pronunciation and an example sentence (spec §2, the voice
   * version of the dialog). They sit between the word card and Next/Reveal.
   */
  wordAids?: (descriptor: Descriptor) => ReactNode
}

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('button, a, [role="button"]') !== null
}

/** The running session: one word on a card, Next, and Reveal More Descriptors. */
export function TrainingDialog({
  session,
  language,
  categoryOf,
  onNext,
  onReveal,
  onEnd,
  wordAids,
}: TrainingDialogProps) {
  const { t } = useTranslation('descriptors')
  const relatedId = useId()
  const { descriptor, loading, revealed, problem } = session
  const category = descriptor ? categoryOf(descriptor) : undefined

  // Enter or → for the next word, R to reveal; Enter on a focused button keeps its own meaning.
  useDialogKeys(session.running, (event) => {
    if (event.key === 'ArrowRight' || (event.key === 'Enter' && !isControl(event.target))) {
      event.preventDefault()
      onNext()
    } else if (event.key === 'r' || event.key === 'R') {
      event.preventDefault()
      onReveal()
    }
  })

  return (
    <WordDialog
      open={session.running}
      onClose={onEnd}
      title={t('trainer.title')}
      language={language}
      actions={
        <DialogActions sx={{ justifyContent: { xs: 'flex-end', sm: 'space-between' }, px: 3 }}>
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ display: { xs: 'none', sm: 'block' } }}
          >
            {t('training.keys')}
          </Typography>
          <Button onClick={onEnd}>{t('training.end')}</Button>
        </DialogActions>
      }
    >
      <Stack spacing={2.5}>
        <WordCard busy={loading} sx={{ minHeight: { xs: 180, sm: 200 }, gap: 2 }}>
          {loading ? (
            <CircularProgress aria-label={t('training.loading')} />
          ) : problem ? (
            <Alert severity={problem.severity}>{problem.text}</Alert>
          ) : descriptor ? (
            <>
              {category ? <CategoryChip category={category} /> : null}
              <ShownWord descriptor={descriptor} testId="training-word" />
            </>
          ) : null}
        </WordCard>

        {descriptor && !loading && wordAids ? wordAids(descriptor) : null}

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <SteadyButton
            variant="outlined"
            onClick={onReveal}
            inactive={!descriptor || loading || revealed !== null}
            sx={{ flex: 1 }}
          >
            {t('training.reveal')}
          </SteadyButton>
          <SteadyButton
            variant="contained"
            onClick={onNext}
            inactive={loading}
            endIcon={<ArrowForwardIcon />}
            sx={{ flex: 1 }}
          >
            {t('training.next')}
          </SteadyButton>
        </Stack>

        {revealed && descriptor && !loading ? (
          <Box component="section" aria-labelledby={relatedId}>
            <Typography id={relatedId} variant="subtitle1" component="h3" gutterBottom>
              {t('training.related')}
            </Typography>
            {revealed.length > 0 ? (
              <WordList label={t('training.related')}>
                {revealed.map((related) => (
                  <WordChip key={related.id} word={related.word} />
                ))}
              </WordList>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t('training.noRelated')}
              </Typography>
            )}
          </Box>
        ) : null}
      </Stack>
    </WordDialog>
  )
}
