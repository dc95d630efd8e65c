import CheckIcon from '@mui/icons-material/Check'
import CloseIcon from '@mui/icons-material/Close'
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Typography,
} from '@mui/material'
import i18next from 'i18next'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useToast } from '../../../components/toast/index.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import type { Descriptor } from '../../../lib/api/generated.ts'
import {
  useListGestaltsQuery,
  useListPerceptionsQuery,
  useListPendingDescriptorsQuery,
  usePromoteDescriptorMutation,
  useRejectDescriptorMutation,
} from '../api.ts'
import { categoryLabel, formatSubmitted, shortId, statusLabel } from '../format.ts'

/** The users' submissions awaiting review, a card each, with 'Promote to System' and 'Reject'. */
export function PendingDescriptorList() {
  const { data, error, isLoading } = useListPendingDescriptorsQuery()
  const [promote] = usePromoteDescriptorMutation()
  const [reject] = useRejectDescriptorMutation()
  const [busy, setBusy] = useState<{ id: number; action: 'promote' | 'reject' } | null>(null)
  const { toast } = useToast()
  const { t, i18n } = useTranslation('admin')
  // Each card names the gestalt or perception its word was submitted for.
  const { data: gestalts } = useListGestaltsQuery({ language: 'en' })
  const { data: perceptions } = useListPerceptionsQuery({ language: 'en' })
  const names = useMemo(
    () => ({
      gestalts: new Map((gestalts ?? []).map((g) => [g.id, g])),
      perceptions: new Map((perceptions ?? []).map((p) => [p.id, p])),
    }),
    [gestalts, perceptions],
  )

  async function act(descriptor: Descriptor, action: 'promote' | 'reject') {
    setBusy({ id: descriptor.id, action })
    try {
      if (action === 'promote') {
        await promote({ id: descriptor.id }).unwrap()
        toast({
          title: i18next.t('admin:toast.success'),
          description: i18next.t('admin:pending.promoted'),
          variant: 'success',
        })
      } else {
        await reject({ id: descriptor.id }).unwrap()
        toast({
          title: i18next.t('admin:toast.success'),
          description: i18next.t('admin:pending.rejected'),
          variant: 'success',
        })
      }
    } catch (err) {
      toast({
        title: i18next.t('admin:toast.error'),
        description: errorMessage(
          err,
          i18next.t(
            action === 'promote' ? 'admin:pending.promoteFailed' : 'admin:pending.rejectFailed',
          ),
        ),
        variant: 'destructive',
      })
    } finally {
      setBusy(null)
    }
  }

  if (isLoading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={t('pending.loading')} />
      </Box>
    )
  }
  if (error) {
    return <Alert severity="error">{errorMessage(error, t('pending.loadFailed'))}</Alert>
  }
  if (!data || data.length === 0) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 6 }}>
        <Typography variant="h6" component="h2">
          {t('pending.emptyTitle')}
        </Typography>
        <Typography color="text.secondary">{t('pending.emptyText')}</Typography>
      </Stack>
    )
  }
  return (
    <Box
      component="ul"
      aria-label={t('pending.list')}
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
      }}
    >
      {data.map((descriptor) => (
        <Card component="li" variant="outlined" key={descriptor.id} aria-label={descriptor.word}>
          <CardContent>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="h6" component="h3" sx={{ wordBreak: 'break-word' }}>
                {descriptor.word}
              </Typography>
              <Chip size="small" label={descriptor.language.toUpperCase()} />
            </Stack>
            <Typography variant="body2">{categoryLabel(descriptor, names)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('pending.submitted', {
                when: formatSubmitted(descriptor.createdAt, i18n.language),
              })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('pending.by', { user: shortId(descriptor.createdBy) })}
            </Typography>
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={statusLabel(descriptor.status)}
              sx={{ mt: 1 }}
            />
          </CardContent>
          <CardActions>
            <Button
              variant="contained"
              size="small"
              startIcon={<CheckIcon />}
              loading={busy?.id === descriptor.id && busy.action === 'promote'}
              disabled={busy !== null}
              onClick={() => void act(descriptor, 'promote')}
            >
              {t('pending.promote')}
            </Button>
            <Button
              color="error"
              size="small"
              startIcon={<CloseIcon />}
              loading={busy?.id === descriptor.id && busy.action === 'reject'}
              disabled={busy !== null}
              onClick={() => void act(descriptor, 'reject')}
            >
              {t('pending.reject')}
            </Button>
          </CardActions>
        </Card>
      ))}
    </Box>
  )
}
