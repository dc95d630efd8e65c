import HistoryIcon from '@mui/icons-material/History'
import { Alert } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { PracticeSession } from '../api.ts'

/** A date as people say it ("12 Mar 2026"), in the interface language. */
const dateOf = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso))

/**
 * Says, calmly, when this session's pictures may have been shown to the viewer before: over
 * 180 days ago (rested), or on the date of the latest showing (recent, once the pool has no
 * fresher set left). Nothing for pictures never shown. The same holds for every candidate, so
 * it favours none of them.
 */
export function PicturesSeenNote({ seen }: { seen: PracticeSession['picturesSeen'] }) {
  const { t, i18n } = useTranslation('practice')
  if (seen.familiarity === 'unseen') return null
  return (
    <Alert severity="info" variant="outlined" icon={<HistoryIcon />} role="note" sx={{ mt: 1 }}>
      {seen.familiarity === 'recent' && seen.lastShownAt
        ? t('session.picturesSeen.recent', { date: dateOf(i18n.language, seen.lastShownAt) })
        : t('session.picturesSeen.rested')}{' '}
      {t('session.picturesSeen.fair')}
    </Alert>
  )
}
