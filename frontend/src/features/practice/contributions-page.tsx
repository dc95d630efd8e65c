import UploadIcon from '@mui/icons-material/Upload'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormLabel,
  InputLabel,
  List,
  ListItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useListMyPracticeContributionsQuery,
  useSubmitPracticeContributionMutation,
} from './api.ts'
import type { PracticeContribution } from './api.ts'
import {
  TagPicker,
  licenceLabel,
  licenceOptions,
  needsAttribution,
} from './components/target-fields.tsx'
import type { Licence } from './components/target-fields.tsx'
import { formatDateTime } from './format.ts'

/** What a contributor may license their own photograph under. */
const OWN_WORK_LICENCES: Licence[] = ['CC0-1.0', 'CC-BY-4.0']
/** A found picture's licences: the allowlist but the project's own work. */
const FOUND_LICENCES: Licence[] = [
  'CC0-1.0',
  'public-domain',
  'CC-BY-4.0',
  'CC-BY-3.0',
  'CC-BY-2.5',
  'CC-BY-2.0',
  'CC-BY-SA-4.0',
  'CC-BY-SA-3.0',
  'CC-BY-SA-2.5',
  'CC-BY-SA-2.0',
]

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })

interface Draft {
  file: File | null
  image: string
  title: string
  feedback: string
  tags: string[]
  ownWork: boolean
  licence: Licence
  source: string
  attribution: string
}

const EMPTY: Draft = {
  file: null,
  image: '',
  title: '',
  feedback: '',
  tags: [],
  ownWork: true,
  licence: 'CC0-1.0',
  source: '',
  attribution: '',
}

function ContributionForm() {
  const { t } = useTranslation(['practice', 'common'])
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [submit, submitting] = useSubmitPracticeContributionMutation()
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const update = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const choose = async (file: File | undefined) => {
    if (!file) return
    update({ file, image: await readAsDataUrl(file) })
    setOutcome(null)
  }
  const setOrigin = (ownWork: boolean) =>
    update({ ownWork, licence: 'CC0-1.0', source: ownWork ? '' : draft.source })
  const ready =
    draft.image !== '' &&
    draft.title.trim() !== '' &&
    draft.feedback.trim() !== '' &&
    draft.tags.length > 0 &&
    (draft.ownWork || draft.source.trim() !== '') &&
    (!needsAttribution(draft.licence) || draft.attribution.trim() !== '')

  const send = async (event: FormEvent) => {
    event.preventDefault()
    try {
      const sent = await submit({
        practiceContributionNew: {
          image: draft.image,
          title: draft.title.trim(),
          feedback: draft.feedback.trim(),
          tags: draft.tags,
          ownWork: draft.ownWork,
          licence: draft.licence,
          source: draft.ownWork ? '' : draft.source.trim(),
          attribution: needsAttribution(draft.licence) ? draft.attribution.trim() : null,
        },
      }).unwrap()
      setOutcome({ ok: true, text: t('contributions.form.sent', { title: sent.title }) })
      setDraft(EMPTY)
    } catch (err) {
      setOutcome({
        ok: false,
        text: t('contributions.form.failed', {
          reason: errorMessage(err, t('contributions.form.tryAgain')),
        }),
      })
    }
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby="contribute-heading">
      <CardContent>
        <Stack component="form" spacing={2} onSubmit={(e) => void send(e)} noValidate>
          <Typography variant="h6" component="h2" id="contribute-heading">
            {t('contributions.form.heading')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'start' }}>
            <Button
              component="label"
              variant="outlined"
              startIcon={<UploadIcon />}
              sx={{ minHeight: 44, whiteSpace: 'nowrap' }}
            >
              {draft.file
                ? t('contributions.form.pictureChosen', { name: draft.file.name })
                : t('contributions.form.choosePicture')}
              <input
                hidden
                type="file"
                accept="image/jpeg,image/png,image/webp,image/gif"
                onChange={(e) => void choose(e.target.files?.[0])}
              />
            </Button>
            {draft.image ? (
              <Box
                component="img"
                src={draft.image}
                alt={t('contributions.form.preview')}
                sx={{ width: 200, maxWidth: '100%', borderRadius: 1, objectFit: 'contain' }}
              />
            ) : null}
          </Stack>
          <TextField
            label={t('contributions.form.title')}
            value={draft.title}
            onChange={(e) => update({ title: e.target.value })}
            required
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField
            label={t('contributions.form.feedback')}
            value={draft.feedback}
            onChange={(e) => update({ feedback: e.target.value })}
            required
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
          <TagPicker value={draft.tags} onChange={(tags) => update({ tags })} />
          <FormControl>
            <FormLabel id="contribution-origin">{t('contributions.form.origin')}</FormLabel>
            <RadioGroup
              aria-labelledby="contribution-origin"
              value={draft.ownWork ? 'own' : 'found'}
              onChange={(e) => setOrigin(e.target.value === 'own')}
            >
              <FormControlLabel
                value="own"
                control={<Radio />}
                label={t('contributions.form.ownWork')}
              />
              <FormControlLabel
                value="found"
                control={<Radio />}
                label={t('contributions.form.found')}
              />
            </RadioGroup>
          </FormControl>
          <FormControl sx={{ maxWidth: 360 }}>
            <InputLabel id="contribution-licence">{t('contributions.form.licence')}</InputLabel>
            <Select
              labelId="contribution-licence"
              label={t('contributions.form.licence')}
              value={draft.licence}
              onChange={(e) => update({ licence: e.target.value as Licence })}
            >
              {licenceOptions(t, draft.ownWork ? OWN_WORK_LICENCES : FOUND_LICENCES)}
            </Select>
          </FormControl>
          {draft.ownWork ? (
            <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '70ch' }}>
              {t('contributions.form.ownWorkNote')}
            </Typography>
          ) : (
            <TextField
              label={t('contributions.form.source')}
              value={draft.source}
              onChange={(e) => update({ source: e.target.value })}
              required
              type="url"
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          )}
          {needsAttribution(draft.licence) ? (
            <TextField
              label={draft.ownWork ? t('contributions.form.creditName') : t('targets.attribution')}
              value={draft.attribution}
              onChange={(e) => update({ attribution: e.target.value })}
              required
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          ) : null}
          {outcome ? (
            <Alert severity={outcome.ok ? 'success' : 'warning'} role="status">
              {outcome.text}
            </Alert>
          ) : null}
          <Box>
            <Button
              type="submit"
              variant="contained"
              disabled={!ready || submitting.isLoading}
              startIcon={submitting.isLoading ? <CircularProgress size={18} aria-hidden /> : null}
              sx={{ minHeight: 44 }}
            >
              {t('contributions.form.send')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  )
}

const STATUS_COLOUR = { pending: 'default', in_pool: 'success', rejected: 'warning' } as const

function ContributionItem({ contribution: c }: { contribution: PracticeContribution }) {
  const { t, i18n } = useTranslation('practice')
  return (
    <ListItem
      aria-label={c.title}
      divider
      sx={{ alignItems: 'flex-start', gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' }, px: 0 }}
    >
      <Box
        component="img"
        src={c.imageUrl}
        alt=""
        sx={{ width: 120, height: 90, objectFit: 'cover', borderRadius: 1, flexShrink: 0 }}
      />
      <Stack spacing={0.5} sx={{ minWidth: 0 }}>
        <Typography variant="subtitle1" component="h3" sx={{ overflowWrap: 'anywhere' }}>
          {c.title}
        </Typography>
        <Box>
          <Chip
            size="small"
            color={STATUS_COLOUR[c.status]}
            label={t(`contributions.status.${c.status}`)}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('contributions.sentOn', {
            date: formatDateTime(i18n.language, c.createdAt),
            licence: licenceLabel(t, c.licence),
          })}
        </Typography>
        {c.status === 'rejected' && c.rejectionReason ? (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {t('contributions.reason', { reason: c.rejectionReason })}
          </Typography>
        ) : null}
      </Stack>
    </ListItem>
  )
}

function MyContributions() {
  const { t } = useTranslation('practice')
  const { data, isLoading, isError } = useListMyPracticeContributionsQuery()
  return (
    <Box component="section" aria-labelledby="my-contributions-heading">
      <Typography variant="h6" component="h2" id="my-contributions-heading">
        {t('contributions.listHeading')}
      </Typography>
      {isLoading ? <CircularProgress aria-label={t('contributions.loading')} /> : null}
      {isError ? <Alert severity="warning">{t('contributions.notLoaded')}</Alert> : null}
      {data && data.length === 0 ? (
        <Typography color="text.secondary">{t('contributions.none')}</Typography>
      ) : null}
      {data && data.length > 0 ? (
        <List aria-labelledby="my-contributions-heading">
          {data.map((c) => (
            <ContributionItem key={c.id} contribution={c} />
          ))}
        </List>
      ) : null}
    </Box>
  )
}

/** A user's contributed pictures: the form to send one, and where each stands. */
export function ContributionsPage() {
  usePageMeta('practiceContributions')
  const { t } = useTranslation('practice')
  return (
    <SignedInOnly
      fallback={
        <SignInRequired
          title={t('contributions.heading')}
          message={t('contributions.signInNeeded')}
        />
      }
    >
      <PageContainer>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('contributions.heading')}
        </Typography>
        <Typography sx={{ mb: 2, maxWidth: '70ch' }}>{t('contributions.intro')}</Typography>
        <Stack spacing={3} sx={{ maxWidth: 820 }}>
          <ContributionForm />
          <MyContributions />
        </Stack>
      </PageContainer>
    </SignedInOnly>
  )
}
