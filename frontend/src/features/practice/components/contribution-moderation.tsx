import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  InputLabel,
  Link,
  MenuItem,
  Select,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../../../lib/api/index.ts'
import {
  useApprovePracticeContributionMutation,
  useListPracticeContributionsQuery,
  useListPracticePoolsQuery,
  useRejectPracticeContributionMutation,
  useTagPracticeContributionMutation,
} from '../api.ts'
import type { PracticeContributionReview } from '../api.ts'
import { fixed } from '../format.ts'
import { useConceptWords } from '../concept-words.ts'
import { TagPicker, licenceLabel } from './target-fields.tsx'

type Status = PracticeContributionReview['status']
const STATUSES: Status[] = ['pending', 'in_pool', 'rejected']

function TagChips({ tags }: { tags: string[] }) {
  const wordOf = useConceptWords(tags)
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {tags.map((tag) => (
        <Chip key={tag} size="small" variant="outlined" label={wordOf(tag)} />
      ))}
    </Stack>
  )
}

/** The second tagger's form: the picture and title only, never the contributor's tags. */
function BlindTagging({ contribution }: { contribution: PracticeContributionReview }) {
  const { t } = useTranslation('practice')
  const [tags, setTags] = useState<string[]>([])
  const [save, saving] = useTagPracticeContributionMutation()
  const [failure, setFailure] = useState<string | null>(null)
  const submit = async () => {
    try {
      await save({
        contributionId: contribution.id,
        practiceContributionTags: { tags },
      }).unwrap()
    } catch (err) {
      setFailure(errorMessage(err, t('targets.tryAgain')))
    }
  }
  return (
    <Stack spacing={1}>
      <Typography variant="body2">{t('contributions.moderation.tagBlind')}</Typography>
      <TagPicker
        value={tags}
        onChange={setTags}
        label={t('contributions.moderation.yourTags', { title: contribution.title })}
      />
      {failure ? <Alert severity="warning">{failure}</Alert> : null}
      <Box>
        <Button
          variant="contained"
          disabled={tags.length === 0 || saving.isLoading}
          onClick={() => void submit()}
          sx={{ minHeight: 44 }}
        >
          {t('contributions.moderation.saveTags')}
        </Button>
      </Box>
    </Stack>
  )
}

/** Both tag sets, the κ between them, the disputed tags to confirm, and the pool to add it to. */
function Decision({ contribution }: { contribution: PracticeContributionReview }) {
  const { t, i18n } = useTranslation('practice')
  const pools = useListPracticePoolsQuery()
  const [poolId, setPoolId] = useState('')
  const [confirmed, setConfirmed] = useState<string[]>([])
  const [approve, approving] = useApprovePracticeContributionMutation()
  const [failure, setFailure] = useState<string | null>(null)
  const agreement = contribution.agreement
  if (!agreement) return null
  const chosenPool = poolId || pools.data?.[0]?.id || ''
  const disputed: [string, string[]][] = [
    [t('contributions.moderation.onlyContributor'), agreement.contributorOnly],
    [t('contributions.moderation.onlySecond'), agreement.secondOnly],
  ]
  const toggle = (tag: string, on: boolean) =>
    setConfirmed((c) => (on ? [...c, tag] : c.filter((x) => x !== tag)))
  const submit = async () => {
    try {
      await approve({
        contributionId: contribution.id,
        practiceContributionApproval: { poolId: chosenPool, confirmedTags: confirmed },
      }).unwrap()
    } catch (err) {
      setFailure(errorMessage(err, t('targets.tryAgain')))
    }
  }
  const agreed = agreement.both.length + confirmed.length
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2">
        {t('contributions.moderation.kappa', { kappa: fixed(i18n.language, agreement.kappa) })}
      </Typography>
      <Box>
        <Typography variant="subtitle2" component="p">
          {t('contributions.moderation.both')}
        </Typography>
        <TagChips tags={agreement.both} />
      </Box>
      {agreement.contributorOnly.length + agreement.secondOnly.length > 0 ? (
        <Stack spacing={1}>
          <Typography variant="body2" color="text.secondary">
            {t('contributions.moderation.confirmHelp')}
          </Typography>
          {disputed.map(([label, tags]) =>
            tags.length > 0 ? (
              <FormControl key={label} component="fieldset">
                <FormLabel component="legend">{label}</FormLabel>
                <FormGroup row>
                  {tags.map((tag) => (
                    <FormControlLabel
                      key={tag}
                      control={
                        <Checkbox
                          checked={confirmed.includes(tag)}
                          onChange={(e) => toggle(tag, e.target.checked)}
                        />
                      }
                      label={tag}
                    />
                  ))}
                </FormGroup>
              </FormControl>
            ) : null,
          )}
        </Stack>
      ) : null}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <FormControl sx={{ minWidth: 220 }}>
          <InputLabel id={`pool-${contribution.id}`}>
            {t('contributions.moderation.pool')}
          </InputLabel>
          <Select
            labelId={`pool-${contribution.id}`}
            label={t('contributions.moderation.pool')}
            value={chosenPool}
            onChange={(e) => setPoolId(String(e.target.value))}
          >
            {(pools.data ?? []).map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Button
          variant="contained"
          disabled={!chosenPool || agreed === 0 || approving.isLoading}
          startIcon={approving.isLoading ? <CircularProgress size={18} aria-hidden /> : null}
          onClick={() => void submit()}
          sx={{ minHeight: 44 }}
        >
          {t('contributions.moderation.approve', { count: agreed })}
        </Button>
      </Stack>
      {failure ? <Alert severity="warning">{failure}</Alert> : null}
    </Stack>
  )
}

function RejectDialog({
  contribution,
  onClose,
}: {
  contribution: PracticeContributionReview
  onClose: () => void
}) {
  const { t } = useTranslation('practice')
  const [reason, setReason] = useState('')
  const [reject, rejecting] = useRejectPracticeContributionMutation()
  const [failure, setFailure] = useState<string | null>(null)
  const submit = async () => {
    try {
      await reject({
        contributionId: contribution.id,
        practiceContributionRejection: { reason: reason.trim() },
      }).unwrap()
      onClose()
    } catch (err) {
      setFailure(errorMessage(err, t('targets.tryAgain')))
    }
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>
        {t('contributions.moderation.rejectTitle', { title: contribution.title })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('contributions.moderation.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          {failure ? <Alert severity="warning">{failure}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('targets.cancel')}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={!reason.trim() || rejecting.isLoading}
          onClick={() => void submit()}
        >
          {t('contributions.moderation.confirmReject')}
        </Button>
      </DialogActions>
    </Dialog>
  )
}

function ContributionCard({ contribution: c }: { contribution: PracticeContributionReview }) {
  const { t, i18n } = useTranslation('practice')
  const [rejecting, setRejecting] = useState(false)
  const tagged = c.secondTags !== null
  return (
    <Card variant="outlined" component="article" aria-label={c.title}>
      <CardContent>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Box
            component="img"
            src={c.imageUrl}
            alt={c.title}
            sx={{ width: { xs: '100%', md: 280 }, maxHeight: 320, objectFit: 'contain' }}
          />
          <Stack spacing={1.5} sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>
              {c.title}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {c.ownWork
                ? t('contributions.moderation.ownWork', { licence: licenceLabel(t, c.licence) })
                : licenceLabel(t, c.licence)}
              {c.attribution
                ? ` · ${t('contributions.moderation.credit', { name: c.attribution })}`
                : ''}
            </Typography>
            {c.source ? (
              <Link
                href={c.source}
                target="_blank"
                rel="noreferrer noopener"
                variant="body2"
                sx={{ overflowWrap: 'anywhere' }}
              >
                {c.source}
              </Link>
            ) : null}
            {c.feedback ? (
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {c.feedback}
              </Typography>
            ) : null}
            {c.status === 'pending' && c.yours ? (
              <Alert severity="info">{t('contributions.moderation.yours')}</Alert>
            ) : null}
            {c.status === 'pending' && !c.yours && !tagged ? (
              <BlindTagging contribution={c} />
            ) : null}
            {c.status === 'pending' && !c.yours && tagged ? <Decision contribution={c} /> : null}
            {c.status === 'in_pool' && c.agreement ? (
              <>
                <Typography variant="body2">
                  {t('contributions.moderation.kappa', {
                    kappa: fixed(i18n.language, c.agreement.kappa),
                  })}
                </Typography>
                <TagChips tags={c.agreedTags ?? []} />
              </>
            ) : null}
            {c.status === 'rejected' && c.rejectionReason ? (
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {t('contributions.reason', { reason: c.rejectionReason })}
              </Typography>
            ) : null}
            {c.status === 'pending' && !c.yours ? (
              <Box>
                <Button color="error" onClick={() => setRejecting(true)} sx={{ minHeight: 44 }}>
                  {t('contributions.moderation.reject')}
                </Button>
              </Box>
            ) : null}
          </Stack>
        </Stack>
      </CardContent>
      {rejecting ? <RejectDialog contribution={c} onClose={() => setRejecting(false)} /> : null}
    </Card>
  )
}

/**
 * The moderation queue of contributed pictures (issue [24]): tag a contribution second, without
 * its contributor's tags (the server withholds them until then), then approve it into a pool
 * with the agreed tags, or reject it with a reason its contributor reads.
 */
export function ContributionModeration() {
  const { t } = useTranslation('practice')
  const [status, setStatus] = useState<Status>('pending')
  const list = useListPracticeContributionsQuery({ status })
  return (
    <Box component="section" aria-labelledby="contributions-heading">
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Typography variant="h5" component="h2" id="contributions-heading">
          {t('contributions.moderation.heading')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={status}
          onChange={(_e, next: Status | null) => next && setStatus(next)}
          aria-label={t('contributions.moderation.show')}
        >
          {STATUSES.map((s) => (
            <ToggleButton key={s} value={s} sx={{ minHeight: 44 }}>
              {t(`contributions.moderation.tabs.${s}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {list.isFetching && !list.data ? (
        <CircularProgress aria-label={t('contributions.moderation.loading')} />
      ) : null}
      {list.data && list.data.length === 0 ? (
        <Typography color="text.secondary">{t('contributions.moderation.empty')}</Typography>
      ) : null}
      <Stack spacing={2}>
        {(list.data ?? []).map((c) => (
          <ContributionCard key={c.id} contribution={c} />
        ))}
      </Stack>
    </Box>
  )
}
