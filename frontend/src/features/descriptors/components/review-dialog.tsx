import { Alert, Box, Button, Chip, CircularProgress, Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Descriptor, ReviewRating } from '../../../lib/api/generated.ts'
import type { Category } from '../catalog.ts'
import type { LanguageOption } from '../languages.ts'
import { ratings, reviewInterval } from '../review-queue.ts'
import type { ReviewSession } from '../use-review-session.ts'
import { CategoryChip, ShownWord, useDialogKeys, WordCard, WordDialog } from './word-dialog.tsx'

export type ReviewDialogProps = {
  session: ReviewSession
  language: LanguageOption
  categoryOf: (descriptor: Descriptor) => Category | undefined
  onReveal: () => void
  onAnswer: (rating: ReviewRating) => void
  onEnd: () => void
  wordAids?: (descriptor: Descriptor) => ReactNode
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
  const card = session.cards[0]
  const descriptor = card?.descriptor
  const category = descriptor ? categoryOf(descriptor) : undefined
  const now = new Date().toISOString()
  const intervalLabel = (fromIso: string, toIso: string) => {
    const { unit, count } = reviewInterval(fromIso, toIso)
    return t(`review.interval.${unit}`, { count })
  }

  useDialogKeys(session.open, (event) => {
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

  return (
    <WordDialog
      open={session.open}
      onClose={onEnd}
      title={t('review.title')}
      language={language}
      details={
        <>
          {' · '}
          {t('review.left', { count: session.cards.length })}
          {session.unsent > 0 ? ` · ${t('review.unsynced', { count: session.unsent })}` : ''}
        </>
      }
    >
      <Stack spacing={2.5}>
        {session.offline ? <Alert severity="info">{t('review.offline')}</Alert> : null}
        <WordCard busy={session.loading} sx={{ minHeight: { xs: 200, sm: 220 }, gap: 1.5 }}>
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
              <ShownWord descriptor={descriptor} testId="review-word" />
              {session.revealed ? (
                <Box data-testid="review-answer">
                  {category ? <CategoryChip category={category} /> : null}
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
        </WordCard>

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
    </WordDialog>
  )
}
