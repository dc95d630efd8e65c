import CheckIcon from '@mui/icons-material/Check'
import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
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
  IconButton,
  Stack,
  Typography,
} from '@mui/material'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeReveal } from '../api.ts'
import { useConceptWords } from '../concept-words.ts'
import type { RevealCheck } from '../use-reveal-check.ts'
import type { CommitmentsToCheck, RevealCheckName } from '../verify.ts'
import { fixed, formatDateTime, scoredPartLabel } from '../format.ts'

const percent = (language: string, x: number) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(x)

function ConceptChips({ ids, color }: { ids: string[]; color: 'success' | 'default' }) {
  const { t } = useTranslation('practice')
  const wordOf = useConceptWords(ids)
  if (ids.length === 0) return <Typography color="text.secondary">{t('reveal.none')}</Typography>
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {ids.map((id) => (
        <Chip key={id} size="small" label={wordOf(id)} color={color} variant="outlined" />
      ))}
    </Stack>
  )
}

const CHECK_LABELS = {
  image: 'reveal.checks.image',
  commitment: 'reveal.checks.commitment',
  candidateCommitment: 'reveal.checks.candidateCommitment',
  targetAmongCandidates: 'reveal.checks.targetAmongCandidates',
} as const satisfies Record<RevealCheckName, string>

/**
 * Copies `value` (a target id, a nonce, a hash) for checking elsewhere. Where the browser will
 * not write to the clipboard, the value is selected instead, ready for the copy key.
 */
function CopyButton({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('practice')
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = async (button: HTMLElement) => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
    } catch {
      const shown = button.closest('dd')?.querySelector('[data-value]')
      if (shown) window.getSelection()?.selectAllChildren(shown)
    }
  }
  return (
    <IconButton
      size="small"
      aria-label={t(copied ? 'reveal.copied' : 'reveal.copy', { label })}
      onClick={(event) => void copy(event.currentTarget)}
      sx={{ my: -0.5, flexShrink: 0 }}
    >
      {copied ? (
        <CheckIcon fontSize="small" color="success" />
      ) : (
        <ContentCopyIcon fontSize="small" />
      )}
    </IconButton>
  )
}

/** The values the check uses, each on its own line, whole (hashes are long; they wrap). */
function Fields({ rows }: { rows: [string, string][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(10rem, max-content) 1fr' },
        columnGap: 2,
        rowGap: 0.5,
        my: 1,
        '& dt': { fontWeight: 500 },
        '& dd': {
          m: 0,
          mb: { xs: 1, sm: 0 },
          display: 'flex',
          alignItems: 'flex-start',
          gap: 0.5,
          fontFamily: 'monospace',
          fontSize: '0.875rem',
          wordBreak: 'break-all',
        },
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2">
            {label}
          </Typography>
          <Typography component="dd">
            <Box component="span" data-value sx={{ minWidth: 0 }}>
              {value}
            </Box>
            {value === '—' ? null : <CopyButton label={label} value={value} />}
          </Typography>
        </Box>
      ))}
    </Box>
  )
}

function Verification({
  reveal,
  check,
  against,
  onRetry,
}: {
  reveal: PracticeReveal
  check: RevealCheck | null
  against: CommitmentsToCheck | undefined
  onRetry: () => void
}) {
  const { t, i18n } = useTranslation('practice')
  const device = against?.source === 'device'
  return (
    <Box component="section" aria-label={t('reveal.verifyRegion')} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h3">
        {t('reveal.verifyHeading')}
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
        {t('reveal.verifyExplanation')}
      </Typography>
      {against?.source === 'device' && against.keptAt ? (
        <Typography variant="body2">
          {t('reveal.sourceDevice', { date: formatDateTime(i18n.language, against.keptAt) })}
        </Typography>
      ) : against ? (
        <Alert severity="warning">{t('reveal.sourceServer')}</Alert>
      ) : null}
      <Fields
        rows={[
          [t('reveal.fields.targetId'), reveal.targetId],
          [t('reveal.fields.imageSha256'), reveal.imageSha256],
          [t('reveal.fields.nonce'), reveal.nonce],
          ...(against
            ? ([
                [
                  t(device ? 'reveal.fields.commitmentDevice' : 'reveal.fields.commitmentServer'),
                  against.commitment,
                ],
                [
                  t(
                    device
                      ? 'reveal.fields.candidateCommitmentDevice'
                      : 'reveal.fields.candidateCommitmentServer',
                  ),
                  against.candidateCommitment ?? '—',
                ],
              ] as [string, string][])
            : []),
        ]}
      />
      {against && against.candidateCommitment === null ? (
        <Typography variant="body2" color="text.secondary">
          {t('reveal.noCandidateCommitment')}
        </Typography>
      ) : null}
      {!check || check.status === 'checking' ? (
        <Stack direction="row" role="status" sx={{ alignItems: 'center', gap: 1, mt: 1 }}>
          <CircularProgress size={18} aria-hidden />
          <Typography>{t('reveal.checking')}</Typography>
        </Stack>
      ) : check.status === 'error' ? (
        <Alert
          severity="warning"
          sx={{ mt: 1 }}
          action={
            <Button color="inherit" onClick={onRetry} sx={{ minHeight: 44 }}>
              {t('reveal.verifyAgain')}
            </Button>
          }
        >
          {t('reveal.checkFailed', {
            reason: /^\d{3}$/.test(check.reason)
              ? t('reveal.imageAnswered', { status: check.reason })
              : check.reason,
          })}
        </Alert>
      ) : (
        <>
          <Alert
            role="status"
            sx={{ mt: 1 }}
            severity={check.result.ok ? 'success' : 'error'}
            icon={check.result.ok ? <CheckCircleIcon /> : <ErrorIcon />}
          >
            {t(check.result.ok ? 'reveal.allPassed' : 'reveal.someFailed')}
          </Alert>
          <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, mt: 1, mb: 0 }}>
            {check.result.checks.map((c) => (
              <Stack
                component="li"
                key={c.name}
                direction="row"
                sx={{ alignItems: 'flex-start', gap: 1 }}
              >
                {c.ok ? (
                  <CheckCircleIcon color="success" aria-hidden />
                ) : (
                  <ErrorIcon color="error" aria-hidden />
                )}
                <Typography sx={{ flex: 1, minWidth: 0 }}>
                  <Box component="strong" sx={{ color: c.ok ? 'success.main' : 'error.main' }}>
                    {t(c.ok ? 'reveal.passed' : 'reveal.failed')}
                  </Box>
                  {' · '}
                  {t(CHECK_LABELS[c.name])}
                </Typography>
              </Stack>
            ))}
          </Stack>
        </>
      )}
    </Box>
  )
}

/**
 * The target, the viewer's rank beside the analytic judge's, the score beside its chance
 * baseline with what was read for it (and the overlays, never scored), and the check of the
 * commitments made at the start.
 */
export function RevealPanel({
  reveal,
  check,
  against,
  onRetry,
}: {
  reveal: PracticeReveal
  check: RevealCheck | null
  against: CommitmentsToCheck | undefined
  onRetry: () => void
}) {
  const { t, i18n } = useTranslation('practice')
  const { score } = reveal
  const list = new Intl.ListFormat(i18n.language, { type: 'unit' })
  const scored = score.scored ?? []
  const aols = score.aols ?? []
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
            <Typography color="text.secondary">
              {t('reveal.analyticRanked', {
                rank: reveal.analyticRank,
                candidates: reveal.candidates,
              })}
            </Typography>
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center', my: 1 }}>
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
              <Typography variant="body2" color="text.secondary">
                {t('reveal.chanceFigureOfMerit', {
                  value: fixed(i18n.language, reveal.chanceFigureOfMerit),
                })}
              </Typography>
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
            {scored.length > 0 ? (
              <Typography variant="body2" sx={{ mt: 1 }}>
                {t('reveal.scored', {
                  parts: list.format(scored.map(scoredPartLabel)),
                })}
              </Typography>
            ) : null}
            <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
              {t('reveal.aols')}
            </Typography>
            {aols.length > 0 ? (
              <Stack component="ul" sx={{ m: 0, pl: 2.5 }}>
                {aols.map((aol, i) => (
                  <Typography component="li" key={i} variant="body2" color="text.secondary">
                    {aol}
                  </Typography>
                ))}
              </Stack>
            ) : (
              <Typography color="text.secondary">{t('reveal.none')}</Typography>
            )}
          </Grid>
        </Grid>
        <Verification reveal={reveal} check={check} against={against} onRetry={onRetry} />
      </CardContent>
    </Card>
  )
}
