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
import type { PracticeReveal } from '../api.ts'
import { verifyReveal } from '../verify.ts'
import type { Verification } from '../verify.ts'

const percent = (x: number) => `${Math.round(x * 100)}%`

function ConceptChips({ ids, color }: { ids: string[]; color: 'success' | 'default' }) {
  if (ids.length === 0) return <Typography color="text.secondary">none</Typography>
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
      if (!response.ok) throw new Error(`the image answered ${response.status}`)
      setResult(await verifyReveal(reveal, commitment, await response.arrayBuffer()))
    } catch (err) {
      setFailure(`Could not check: ${(err as Error).message}. Try again.`)
    } finally {
      setChecking(false)
    }
  }
  const { score } = reveal
  return (
    <Card variant="outlined" component="section" aria-label="Reveal">
      <CardContent>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Box
              component="img"
              src={reveal.imageUrl}
              alt={`The target: ${reveal.title}`}
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
              You ranked the target {reveal.rank} of {reveal.candidates}
              {reveal.rank === 1 ? ' — a first-place hit.' : '.'}
            </Typography>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', my: 1 }}>
              <Chip label={`Accuracy ${percent(score.accuracy)}`} />
              <Chip label={`Reliability ${percent(score.reliability)}`} />
              <Chip color="primary" label={`Figure of merit ${score.figureOfMerit.toFixed(2)}`} />
            </Stack>
            <Typography variant="subtitle2" component="p">
              Matched
            </Typography>
            <ConceptChips ids={score.matched} color="success" />
            <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
              On the target, not described
            </Typography>
            <ConceptChips ids={score.missed} color="default" />
            {score.unmatchedWords.length > 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Not in the vocabulary (not scored): {score.unmatchedWords.join(', ')}
              </Typography>
            ) : null}
          </Grid>
        </Grid>
        <Box component="section" aria-label="Verify" sx={{ mt: 3 }}>
          <Typography variant="h6" component="h3">
            Verify
          </Typography>
          <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
            When the session started, the server published SHA-256(target id | image hash | secret).
            Your browser now hashes the image it is shown and checks the commitment.
          </Typography>
          <Button
            variant="outlined"
            onClick={() => void verify()}
            disabled={checking}
            sx={{ minHeight: 44 }}
            startIcon={checking ? <CircularProgress size={16} aria-hidden /> : null}
          >
            Verify the commitment
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
                ? 'Commitment verified: the target was fixed before you started.'
                : 'The commitment does not match: this target is not the one sealed at the start.'}
              <br />
              Image SHA-256: {result.imageSha256}
              <br />
              Commitment: {result.commitment}
            </Alert>
          ) : null}
        </Box>
      </CardContent>
    </Card>
  )
}
