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
import { useMemo, useState } from 'react'
import { useToast } from '../../../components/toast/index.ts'
import { errorMessage } from '../../../lib/api/index.ts'
import {
  useListGestaltsQuery,
  useListPerceptionsQuery,
  type Descriptor,
} from '../../../lib/api/generated.ts'
import {
  useListPendingDescriptorsQuery,
  usePromoteDescriptorMutation,
  useRejectDescriptorMutation,
} from '../api.ts'
import { categoryLabel, formatSubmitted, shortId } from '../format.ts'

/** The users' submissions awaiting review, a card each, with 'Promote to System' and 'Reject'. */
export function PendingDescriptorList() {
  const { data, error, isLoading } = useListPendingDescriptorsQuery()
  const [promote] = usePromoteDescriptorMutation()
  const [reject] = useRejectDescriptorMutation()
  const [busy, setBusy] = useState<{ id: number; action: 'promote' | 'reject' } | null>(null)
  const { toast } = useToast()
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
          title: 'Success',
          description: 'Descriptor promoted to main system',
          variant: 'success',
        })
      } else {
        await reject({ id: descriptor.id }).unwrap()
        toast({
          title: 'Success',
          description: 'Descriptor rejected and removed',
          variant: 'success',
        })
      }
    } catch (err) {
      toast({
        title: 'Error',
        description: errorMessage(
          err,
          action === 'promote' ? 'Failed to promote descriptor' : 'Failed to reject descriptor',
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
        <CircularProgress aria-label="Loading pending descriptors" />
      </Box>
    )
  }
  if (error) {
    return (
      <Alert severity="error">{errorMessage(error, 'Failed to load pending descriptors')}</Alert>
    )
  }
  if (!data || data.length === 0) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 6 }}>
        <Typography variant="h6" component="h2">
          No Pending Descriptors
        </Typography>
        <Typography color="text.secondary">All user submissions have been reviewed.</Typography>
      </Stack>
    )
  }
  return (
    <Box
      component="ul"
      aria-label="Pending descriptors"
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
              Submitted {formatSubmitted(descriptor.createdAt)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              By {shortId(descriptor.createdBy)}
            </Typography>
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={descriptor.status}
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
              Promote to System
            </Button>
            <Button
              color="error"
              size="small"
              startIcon={<CloseIcon />}
              loading={busy?.id === descriptor.id && busy.action === 'reject'}
              disabled={busy !== null}
              onClick={() => void act(descriptor, 'reject')}
            >
              Reject
            </Button>
          </CardActions>
        </Card>
      ))}
    </Box>
  )
}
