import ArrowForwardIcon from '@mui/icons-material/ArrowForward'
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { Flag } from '../../../components/flag.tsx'
import { useEffect, useEffectEvent, useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Descriptor } from '../../../lib/api/generated.ts'
import type { Category } from '../catalog.ts'
import type { LanguageOption } from '../languages.ts'
import type { TrainingSession } from '../use-training-session.ts'
import { WordChip, WordList } from './word-chip.tsx'
import { DialogCloseButton } from '../../../components/dialog-close-button.tsx'
import { SteadyButton } from '../../../components/steady-button.tsx'

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

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
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
  const titleId = useId()
  const theme = useTheme()
  // Read at once (no second render): it only shapes the dialog, which a pre-rendered page never has open.
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  const { descriptor, loading, revealed, problem } = session
  const category = descriptor ? categoryOf(descriptor) : undefined

  // Enter or → for the next word, R to reveal; Enter on a focused button keeps its own meaning.
  // Listened for on the window, wherever the focus is.
  const onKey = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return
    if (event.key === 'ArrowRight' || (event.key === 'Enter' && !isControl(event.target))) {
      event.preventDefault()
      onNext()
    } else if (event.key === 'r' || event.key === 'R') {
      event.preventDefault()
      onReveal()
    }
  })
  useEffect(() => {
    if (!session.running) return
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [session.running])

  return (
    <Dialog
      open={session.running}
      onClose={onEnd}
      // The page puts the focus back on Start Training, which was hidden while the session ran.
      disableRestoreFocus
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      // Held at the top: centred, it jumped up each time the related words opened or closed.
      sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
      slotProps={{ paper: { sx: { mt: fullScreen ? 0 : { sm: 8 } } } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {t('trainer.title')}
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          sx={{ display: 'block' }}
        >
          <Flag code={language.code} /> {language.name}
        </Typography>
      </DialogTitle>
      <DialogCloseButton onClick={onEnd} />
      <DialogContent dividers>
        <Stack spacing={2.5}>
          <Paper
            variant="outlined"
            aria-live="polite"
            aria-busy={loading}
            sx={{
              minHeight: { xs: 180, sm: 200 },
              p: { xs: 2, sm: 3 },
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 2,
              textAlign: 'center',
            }}
          >
            {loading ? (
              <CircularProgress aria-label={t('training.loading')} />
            ) : problem ? (
              <Alert severity={problem.severity}>{problem.text}</Alert>
            ) : descriptor ? (
              <>
                {category ? (
                  <Chip
                    size="small"
                    color={category.type === 'gestalt' ? 'primary' : 'secondary'}
                    label={`${t(`categoryType.${category.type}`)} · ${category.name}`}
                  />
                ) : null}
                <Typography
                  component="p"
                  data-testid="training-word"
                  lang={descriptor.language}
                  sx={{
                    fontSize: { xs: '2.25rem', sm: '3rem' },
                    fontWeight: 600,
                    lineHeight: 1.15,
                    overflowWrap: 'anywhere',
                  }}
                >
                  {descriptor.word}
                </Typography>
              </>
            ) : null}
          </Paper>

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
            <Box component="section" aria-labelledby={`${titleId}-related`}>
              <Typography id={`${titleId}-related`} variant="subtitle1" component="h3" gutterBottom>
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
      </DialogContent>
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
    </Dialog>
  )
}
