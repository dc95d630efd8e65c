import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Grid,
  Stack,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeReveal } from '../api.ts'
import { verifyReveal } from '../verify.ts'
import type { Verification } from '../verify.ts'
import { fixed } from '../format.ts'

const percent = (language: string, x: number) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(x)

function ConceptChips({ ids, color }: { ids: string[]; color: 'success' | 'default' }) {
  const { t } = useTranslation('practice')
  if (ids.length === 0) return <Typography color="text.secondary">{t('reveal.none')}</Typography>
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {ids.map((id) => (
        <Chip key={id} size="small" label={id} color={color} variant="outlined" />
      ))}
    </Stack>
  )
}

/** The target, its rank and score, and the check of the commitment published at the start. */
export function RevealPanel({
  reveal,
  commitment,
  authorization,
}: {
  reveal: PracticeReveal
  commitment: string
  authorization?: string | undefined
}) {
  const { t, i18n } = useTranslation('practice')
  const [checking, setChecking] = useState(false)
  const [result, setResult] = useState<Verification | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const verify = async () => {
    setChecking(true)
    setFailure(null)
    try {
      const response = await fetch(reveal.imageUrl, {
        cache: 'no-store',
        ...(authorization ? { headers: { authorization } } : {}),
      })
      if (!response.ok) throw new Error(t('reveal.imageAnswered', { status: response.status }))
      setResult(await verifyReveal(reveal, commitment, await response.arrayBuffer()))
    } catch (err) {
      setFailure(t('reveal.checkFailed', { reason: (err as Error).message }))
    } finally {
      setChecking(false)
    }
  }
  const { score } = reveal
  return (
    <Card variant="outlined" component="section" aria-label={t('reveal.region')}>
      <CardContent>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Box
              component="img"
              src={reveal.imageUrl}
              alt={t('reveal.targetAlt', { title: reveal.title })}
              sx={{ width: '100%', borderRadius: 1 }}
            />
            <Typography variant="caption" color="text.secondary" component="p">
              {reveal.licence === 'CC-BY-4.0' && reveal.attribution
                ? `${reveal.attribution} (CC BY 4.0)`
                : reveal.licence}
              {reveal.source ? ` · ${reveal.source}` : ''}
            </Typography>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Typography variant="h5" component="h2" gutterBottom>
              {reveal.title}
            </Typography>
            <Typography sx={{ mb: 2 }}>{reveal.feedback}</Typography>
            <Typography variant="h6" component="p">
              {t(reveal.rank === 1 ? 'reveal.rankedHit' : 'reveal.ranked', {
                rank: reveal.rank,
                candidates: reveal.candidates,
              })}
            </Typography>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', my: 1 }}>
              <Chip
                label={t('reveal.accuracy', { value: percent(i18n.language, score.accuracy) })}
              />
              <Chip
                label={t('reveal.reliability', {
                  value: percent(i18n.language, score.reliability),
                })}
              />
              <Chip
                color="primary"
                label={t('reveal.figureOfMerit', {
                  value: fixed(i18n.language, score.figureOfMerit),
                })}
              />
            </Stack>
            <Typography variant="subtitle2" component="p">
              {t('reveal.matched')}
            </Typography>
            <ConceptChips ids={score.matched} color="success" />
            <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
              {t('reveal.missed')}
            </Typography>
            <ConceptChips ids={score.missed} color="default" />
            {score.unmatchedWords.length > 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('reveal.notInVocabulary', { words: score.unmatchedWords.join(', ') })}
              </Typography>
            ) : null}
          </Grid>
        </Grid>
        <Box component="section" aria-label={t('reveal.verifyRegion')} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h3">
            {t('reveal.verifyHeading')}
          </Typography>
          <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
            {t('reveal.verifyExplanation')}
          </Typography>
          <Button
            variant="outlined"
            onClick={() => void verify()}
            disabled={checking}
            sx={{ minHeight: 44 }}
            startIcon={checking ? <CircularProgress size={16} aria-hidden /> : null}
          >
            {t('reveal.verifyButton')}
          </Button>
          {failure ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {failure}
            </Alert>
          ) : null}
          {result ? (
            <Alert
              role="status"
              sx={{ mt: 1, wordBreak: 'break-all' }}
              severity={result.imageMatches && result.commitmentMatches ? 'success' : 'error'}
              icon={
                result.imageMatches && result.commitmentMatches ? (
                  <CheckCircleIcon />
                ) : (
                  <ErrorIcon />
                )
              }
            >
              {result.imageMatches && result.commitmentMatches
                ? t('reveal.verified')
                : t('reveal.mismatch')}
              <br />
              {t('reveal.imageHash', { hash: result.imageSha256 })}
              <br />
              {t('reveal.commitment', { commitment: result.commitment })}
            </Alert>
          ) : null}
        </Box>
      </CardContent>
    </Card>
  )
}
