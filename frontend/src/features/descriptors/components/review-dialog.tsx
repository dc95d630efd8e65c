import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { useEffect, useEffectEvent, useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Flag } from '../../../components/flag.tsx'
import { DialogCloseButton } from '../../../components/dialog-close-button.tsx'
import type { Descriptor, ReviewRating } from '../../../lib/api/generated.ts'
import type { Category } from '../catalog.ts'
import type { LanguageOption } from '../languages.ts'
import { ratings, reviewInterval } from '../review-queue.ts'
import type { ReviewSession } from '../use-review-session.ts'

export type ReviewDialogProps = {
  session: ReviewSession
  language: LanguageOption
  categoryOf: (descriptor: Descriptor) => Category | undefined
  onReveal: () => void
  onAnswer: (rating: ReviewRating) => void
  onEnd: () => void
  wordAids?: (descriptor: Descriptor) => ReactNode
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
}

/**
 * Spaced repetition of the vocabulary: the word, then (Show Answer, Space) its category and
 * English meaning, then how well it was recalled: Again, Hard, Good, Easy (keys 1–4), each
 * with when the word comes back.
 */
export function ReviewDialog({
  session,
  language,
  categoryOf,
  onReveal,
  onAnswer,
  onEnd,
  wordAids,
}: ReviewDialogProps) {
  const { t } = useTranslation(['descriptors', 'common'])
  const titleId = useId()
  const theme = useTheme()
  // Read at once (no second render): it only shapes the dialog, which a pre-rendered page never has open.
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true })
  const card = session.cards[0]
  const descriptor = card?.descriptor
  const category = descriptor ? categoryOf(descriptor) : undefined
  const now = new Date().toISOString()
  const intervalLabel = (fromIso: string, toIso: string) => {
    const { unit, count } = reviewInterval(fromIso, toIso)
    return t(`review.interval.${unit}`, { count })
  }

  const onKey = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return
    if (!session.revealed && (event.key === ' ' || event.key === 'Enter')) {
      if (event.key === 'Enter' && event.target instanceof HTMLButtonElement) return
      event.preventDefault()
      onReveal()
      return
    }
    const chosen = ratings.find((r) => r.key === event.key)
    if (chosen && session.revealed) {
      event.preventDefault()
      onAnswer(chosen.rating)
    }
  })
  useEffect(() => {
    if (!session.open) return
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [session.open])

  return (
    <Dialog
      open={session.open}
      onClose={onEnd}
      disableRestoreFocus
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
      slotProps={{ paper: { sx: { mt: fullScreen ? 0 : { sm: 8 } } } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {t('review.title')}
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          sx={{ display: 'block' }}
          aria-live="polite"
        >
          <Flag code={language.code} /> {language.name} ·{' '}
          {t('review.left', { count: session.cards.length })}
          {session.unsent > 0 ? ` · ${t('review.unsynced', { count: session.unsent })}` : ''}
        </Typography>
      </DialogTitle>
      <DialogCloseButton onClick={onEnd} />
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {session.offline ? <Alert severity="info">{t('review.offline')}</Alert> : null}
          <Paper
            variant="outlined"
            aria-live="polite"
            aria-busy={session.loading}
            sx={{
              minHeight: { xs: 200, sm: 220 },
              p: { xs: 2, sm: 3 },
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1.5,
              textAlign: 'center',
            }}
          >
            {session.loading && !card ? (
              <CircularProgress aria-label={t('review.loading')} />
            ) : session.problem ? (
              <Alert severity="error">{session.problem}</Alert>
            ) : card && descriptor ? (
              <>
                <Chip
                  size="small"
                  variant="outlined"
                  label={t(`review.state.${card.schedule.state}`)}
                />
                <Typography
                  component="p"
                  data-testid="review-word"
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
                {session.revealed ? (
                  <Box data-testid="review-answer">
                    {category ? (
                      <Chip
                        size="small"
                        color={category.type === 'gestalt' ? 'primary' : 'secondary'}
                        label={`${t(`categoryType.${category.type}`)} · ${category.name}`}
                      />
                    ) : null}
                    {card.gloss ? (
                      <Typography sx={{ mt: 1 }} color="text.secondary">
                        {t('review.gloss')} <span lang="en">{card.gloss}</span>
                      </Typography>
                    ) : null}
                  </Box>
                ) : null}
              </>
            ) : (
              <Typography>{t('review.allCaughtUp')}</Typography>
            )}
          </Paper>

          {descriptor && wordAids ? wordAids(descriptor) : null}

          {card && !session.revealed ? (
            <Button variant="contained" size="large" onClick={onReveal}>
              {t('review.showAnswer')}
            </Button>
          ) : null}
          {card && session.revealed ? (
            <Box
              role="group"
              aria-label={t('review.ratingsLabel')}
              sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(4, 1fr)' }}
            >
              {ratings.map(({ rating, key }) => (
                <Button
                  key={rating}
                  variant={rating === 'good' ? 'contained' : 'outlined'}
                  color={rating === 'again' ? 'error' : 'primary'}
                  onClick={() => onAnswer(rating)}
                  aria-keyshortcuts={key}
                  sx={{ flexDirection: 'column', py: 1 }}
                >
                  {t(`review.ratings.${rating}`)}
                  <Typography component="span" variant="caption" sx={{ opacity: 0.8 }}>
                    {intervalLabel(now, card.next[rating])}
                  </Typography>
                </Button>
              ))}
            </Box>
          ) : null}
          {!card && !session.loading ? (
            <Button variant="outlined" onClick={onEnd}>
              {t('common:close')}
            </Button>
          ) : null}
        </Stack>
      </DialogContent>
    </Dialog>
  )
}
