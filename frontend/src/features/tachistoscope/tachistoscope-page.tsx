import ReplayIcon from '@mui/icons-material/Replay'
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined'
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material'
import { useId, useState } from 'react'
import { AccessRestricted, RestoringSession } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { useListTachistoscopeImagesQuery } from '../../lib/api/generated.ts'
import type { TachistoscopeImage } from '../../lib/api/generated.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { FlashOverlay } from './components/flash-overlay.tsx'
import { TrainingProtocolCard } from './components/training-protocol-card.tsx'
import {
  defaultExposure,
  exposureById,
  exposures,
  trainerCategoryLabels,
  type Exposure,
  type ImageCategory,
} from './exposures.ts'
import { framesFor } from './flash-engine.ts'
import { useFlashTrainer } from './use-flash-trainer.ts'
import { useTachistoscopeAccess } from './use-tachistoscope-access.ts'

const emptyCategory = 'No images available in this category. Please check the cloud storage.'

function pickOther(images: TachistoscopeImage[], previous: TachistoscopeImage | null) {
  const choices =
    images.length > 1 && previous ? images.filter((i) => i.id !== previous.id) : images
  return choices[Math.floor(Math.random() * choices.length)] ?? null
}

function durationText(exposure: Exposure, frameMs: number | null): string {
  if (frameMs === null) return exposure.label
  const hz = Math.round(1000 / frameMs)
  if (exposure.ms === 'frame') return `1 frame (${frameMs.toFixed(1)} ms at ${hz} Hz)`
  if (exposure.ms >= 1000) return exposure.label
  const frames = framesFor(exposure.ms, frameMs)
  return `${exposure.label} (${frames} ${frames === 1 ? 'frame' : 'frames'} at ${hz} Hz)`
}

function Trainer() {
  const categoryLabelId = useId()
  const exposureLabelId = useId()
  const { toast } = useToast()
  const [category, setCategory] = useState<ImageCategory>('random')
  const [exposure, setExposure] = useState<Exposure>(defaultExposure)
  const [emptyAlert, setEmptyAlert] = useState(false)
  const { data: images, error, isLoading } = useListTachistoscopeImagesQuery({ category })
  const trainer = useFlashTrainer()
  const busy = trainer.phase !== 'idle'
  const shownInCategory = trainer.current && images?.some((i) => i.id === trainer.current?.id)

  async function show(image: TachistoscopeImage, again: boolean) {
    try {
      await trainer.run(image, exposure, category, again)
    } catch (err) {
      toast({
        title: 'Error',
        description: errorMessage(err, err instanceof Error ? err.message : 'Please try again.'),
        variant: 'destructive',
      })
    }
  }

  function getPicture() {
    const image = images ? pickOther(images, trainer.current) : null
    if (!image) {
      setEmptyAlert(true)
      return
    }
    setEmptyAlert(false)
    void show(image, false)
  }

  return (
    <PageContainer>
      <Typography variant="h4" component="h1">
        Tachistoscope
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        A picture flashes for the exposure you choose. Note what you perceived, then look again.
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Card variant="outlined" sx={{ flex: 3, width: '100%' }}>
          <CardContent>
            <Stack spacing={3}>
              <Box>
                <Typography id={categoryLabelId} variant="subtitle2" gutterBottom>
                  Category
                </Typography>
                <ToggleButtonGroup
                  exclusive
                  color="primary"
                  value={category}
                  disabled={busy}
                  aria-labelledby={categoryLabelId}
                  onChange={(_event, value: ImageCategory | null) => {
                    if (!value) return
                    setCategory(value)
                    setEmptyAlert(false)
                  }}
                >
                  {(Object.keys(trainerCategoryLabels) as ImageCategory[]).map((value) => (
                    <ToggleButton key={value} value={value}>
                      {trainerCategoryLabels[value]}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              </Box>
              <FormControl sx={{ maxWidth: 280 }} disabled={busy}>
                <InputLabel id={exposureLabelId}>Exposure Duration</InputLabel>
                <Select
                  labelId={exposureLabelId}
                  label="Exposure Duration"
                  value={exposure.id}
                  onChange={(event) => setExposure(exposureById(event.target.value))}
                >
                  {exposures.map((option) => (
                    <MenuItem key={option.id} value={option.id}>
                      {option.label}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }}>
                <Typography data-testid="image-count">
                  <strong>Available images:</strong> {isLoading ? '…' : (images?.length ?? 0)}
                </Typography>
                <Typography data-testid="exposure-duration">
                  <strong>Duration:</strong> {durationText(exposure, trainer.frameMs)}
                </Typography>
              </Stack>
              {error && (
                <Alert severity="error">
                  {errorMessage(error, 'The pictures could not be loaded.')}
                </Alert>
              )}
              {emptyAlert && <Alert severity="warning">{emptyCategory}</Alert>}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Button
                  variant="contained"
                  size="large"
                  startIcon={<VisibilityIcon />}
                  disabled={busy || isLoading || Boolean(error)}
                  onClick={getPicture}
                >
                  {busy ? 'Showing Image...' : 'Get Picture'}
                </Button>
                {trainer.current && shownInCategory && (
                  <Button
                    variant="outlined"
                    size="large"
                    startIcon={<ReplayIcon />}
                    disabled={busy}
                    onClick={() => {
                      if (trainer.current) void show(trainer.current, true)
                    }}
                  >
                    Show Again
                  </Button>
                )}
              </Stack>
              {trainer.lastFlash && (
                <Typography variant="body2" color="text.secondary" data-testid="last-flash">
                  Last exposure: {trainer.lastFlash.shownFrames}{' '}
                  {trainer.lastFlash.shownFrames === 1 ? 'frame' : 'frames'} (
                  {Math.round(trainer.lastFlash.shownMs)} ms)
                  {trainer.lastFlash.aborted ? ', ended early' : ''}
                </Typography>
              )}
              {trainer.phase === 'showing' && (
                <Typography variant="body2" color="text.secondary">
                  Press Escape to end the exposure early.
                </Typography>
              )}
            </Stack>
          </CardContent>
        </Card>
        <Box sx={{ flex: 2, width: '100%' }}>
          <TrainingProtocolCard />
        </Box>
      </Stack>
      <FlashOverlay
        overlayRef={trainer.overlayRef}
        canvasRef={trainer.canvasRef}
        label="The picture to perceive"
      />
    </PageContainer>
  )
}

export function TachistoscopePage() {
  usePageMeta('tachistoscope')
  const access = useTachistoscopeAccess()
  if (access === 'restoring') return <RestoringSession />
  if (access === 'restricted') return <AccessRestricted />
  return <Trainer />
}
