import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeCandidate } from '../api.ts'
import { CandidateTags } from './candidate-tags.tsx'

/** The ranking as it will be sent, best match first, to judge or to go back to. */
export function RankingConfirmDialog({
  open,
  ranking,
  letterOf,
  byText,
  onBack,
  onJudge,
}: {
  open: boolean
  ranking: PracticeCandidate[]
  letterOf: (id: string) => string
  byText: boolean
  onBack: () => void
  onJudge: () => void
}) {
  const { t } = useTranslation('practice')
  const titleId = useId()
  return (
    <Dialog open={open} onClose={onBack} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('judge.confirmTitle')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText sx={{ mb: 2 }}>{t('judge.confirmText')}</DialogContentText>
        <Stack
          component="ol"
          spacing={1}
          aria-label={t('judge.yourRanking')}
          sx={{ listStyle: 'none', p: 0, m: 0 }}
        >
          {ranking.map((candidate, index) => {
            const letter = letterOf(candidate.id)
            return (
              <Box
                component="li"
                key={candidate.id}
                aria-label={t('judge.rowLabel', { place: index + 1, letter })}
                sx={{
                  display: 'flex',
                  alignItems: byText ? 'flex-start' : 'center',
                  gap: 1.5,
                  p: 1,
                  borderRadius: 1,
                  bgcolor: index === 0 ? 'action.selected' : 'action.hover',
                }}
              >
                <Typography
                  component="span"
                  variant="h6"
                  aria-hidden
                  sx={{ width: '2ch', textAlign: 'center', flexShrink: 0, lineHeight: 1.6 }}
                >
                  {index + 1}
                </Typography>
                {byText ? null : (
                  <Box
                    component="img"
                    src={candidate.imageUrl}
                    alt={t('judge.candidate', { letter })}
                    sx={{
                      width: 96,
                      height: 72,
                      objectFit: 'contain',
                      bgcolor: 'grey.900',
                      borderRadius: 0.5,
                      flexShrink: 0,
                    }}
                  />
                )}
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Typography sx={{ fontWeight: 500, mb: byText ? 0.5 : 0 }}>
                    {t('judge.candidate', { letter })}
                  </Typography>
                  {byText ? <CandidateTags letter={letter} tags={candidate.tags} /> : null}
                </Box>
              </Box>
            )
          })}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onBack} sx={{ minHeight: 44 }}>
          {t('judge.back')}
        </Button>
        <Button variant="contained" onClick={onJudge} sx={{ minHeight: 44 }}>
          {t('judge.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
