import ReplayIcon from '@mui/icons-material/Replay'
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined'
import {
  Alert,
  AlertTitle,
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
import type { TFunction } from 'i18next'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAppSelector } from '../../lib/store/index.ts'
import { Link as RouterLink } from 'react-router-dom'
import { AccessRestricted, RestoringSession } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { paths } from '../../config/paths.ts'
import { errorMessage } from '../../lib/api/index.ts'
import type { TachistoscopeImage } from '../../lib/api/generated.ts'
import { useListTachistoscopeImagesQuery } from './api.ts'
import { selectIsAdmin } from '../../lib/session/session-slice.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { FlashOverlay } from './components/flash-overlay.tsx'
import { TrainingProtocolCard } from './components/training-protocol-card.tsx'
import {
  defaultExposure,
  exposureById,
  exposureLabel,
  exposures,
  imageCategories,
  type Exposure,
  type ImageCategory,
} from './exposures.ts'
import { framesFor } from './flash-engine.ts'
import { useFlashTrainer } from './use-flash-trainer.ts'
import { useTachistoscopeAccess } from './use-tachistoscope-access.ts'

function pickOther(images: TachistoscopeImage[], previous: TachistoscopeImage | null) {
  const choices =
    images.length > 1 && previous ? images.filter((i) => i.id !== previous.id) : images
  return choices[Math.floor(Math.random() * choices.length)] ?? null
}

function durationText(
  t: TFunction<'tachistoscope'>,
  language: string,
  exposure: Exposure,
  frameMs: number | null,
): string {
  const label = exposureLabel(t, exposure)
  if (frameMs === null) return label
  const hz = String(Math.round(1000 / frameMs))
  if (exposure.ms === 'frame') {
    const ms = new Intl.NumberFormat(language, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }).format(frameMs)
    return t('exposure.oneFrameAt', { ms, hz })
  }
  if (exposure.ms >= 1000) return label
  const frames = framesFor(exposure.ms, frameMs)
  return t('exposure.framesAt', { exposure: label, frames, hz })
}

/**
 * A category without pictures, said instead of a Get Picture that cannot work: whether the whole
 * library is empty or the other category has some, and for an administrator, where to add them.
 */
function EmptyCategory({
  category,
  otherCategory,
  otherCount,
}: {
  category: ImageCategory
  otherCategory: ImageCategory
  otherCount: number | undefined
}) {
  const { t } = useTranslation('tachistoscope')
  const isAdmin = useAppSelector(selectIsAdmin)
  const libraryEmpty = otherCount === 0
  return (
    <Alert severity="info" data-testid="empty-category">
      <AlertTitle>
        {libraryEmpty
          ? t('empty.libraryTitle')
          : t('empty.categoryTitle', { category: t(`categories.trainer.${category}`) })}
      </AlertTitle>
      {otherCount
        ? `${t('empty.otherHas', { category: t(`categories.trainer.${otherCategory}`), count: otherCount })} `
        : null}
      {isAdmin ? (
        <Box sx={{ mt: 1 }}>
          <Button
            variant="outlined"
            color="inherit"
            size="small"
            component={RouterLink}
            to={paths.tachistoscopeAdmin}
          >
            {t('empty.addPictures')}
          </Button>
        </Box>
      ) : (
        t('empty.askAdmin')
      )}
    </Alert>
  )
}

function Trainer() {
  const categoryLabelId = useId()
  const exposureLabelId = useId()
  const { t, i18n } = useTranslation('tachistoscope')
  const { toast } = useToast()
  const [category, setCategory] = useState<ImageCategory>('random')
  const [exposure, setExposure] = useState<Exposure>(defaultExposure)
  const { data: images, error, isLoading } = useListTachistoscopeImagesQuery({ category })
  const empty = images?.length === 0
  const otherCategory = imageCategories.find((c) => c !== category) ?? category
  // Asked only for an empty category: it tells an empty library from an empty category.
  const other = useListTachistoscopeImagesQuery({ category: otherCategory }, { skip: !empty })
  const trainer = useFlashTrainer()
  const busy = trainer.phase !== 'idle'
  const shownInCategory = trainer.current && images?.some((i) => i.id === trainer.current?.id)

  async function show(image: TachistoscopeImage, again: boolean) {
    try {
      await trainer.run(image, exposure, category, again)
    } catch (err) {
      toast({
        title: t('trainer.errorTitle'),
        description: errorMessage(err, err instanceof Error ? err.message : t('trainer.tryAgain')),
        variant: 'destructive',
      })
    }
  }

  function getPicture() {
    const image = images ? pickOther(images, trainer.current) : null
    if (image) void show(image, false)
  }

  return (
    <PageContainer>
      <Typography variant="h4" component="h1">
        {t('trainer.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t('trainer.intro')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Card variant="outlined" sx={{ flex: 3, width: '100%' }}>
          <CardContent>
            <Stack spacing={3}>
              <Box>
                <Typography id={categoryLabelId} variant="subtitle2" gutterBottom>
                  {t('trainer.category')}
                </Typography>
                <ToggleButtonGroup
                  exclusive
                  color="primary"
                  value={category}
                  disabled={busy}
                  aria-labelledby={categoryLabelId}
                  onChange={(_event, value: ImageCategory | null) => {
                    if (value) setCategory(value)
                  }}
                >
                  {imageCategories.map((value) => (
                    <ToggleButton key={value} value={value}>
                      {t(`categories.trainer.${value}`)}
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
              </Box>
              <FormControl sx={{ maxWidth: 280 }} disabled={busy}>
                <InputLabel id={exposureLabelId}>{t('trainer.exposureDuration')}</InputLabel>
                <Select
                  labelId={exposureLabelId}
                  label={t('trainer.exposureDuration')}
                  value={exposure.id}
                  onChange={(event) => setExposure(exposureById(event.target.value))}
                >
                  {exposures.map((option) => (
                    <MenuItem key={option.id} value={option.id}>
                      {exposureLabel(t, option)}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 3 }}>
                <Typography data-testid="image-count">
                  <strong>{t('trainer.availableImages')}</strong>{' '}
                  {isLoading ? '…' : (images?.length ?? 0)}
                </Typography>
                <Typography data-testid="exposure-duration">
                  <strong>{t('trainer.duration')}</strong>{' '}
                  {durationText(t, i18n.language, exposure, trainer.frameMs)}
                </Typography>
              </Stack>
              {error && (
                <Alert severity="error">{errorMessage(error, t('trainer.loadFailed'))}</Alert>
              )}
              {empty && (
                <EmptyCategory
                  category={category}
                  otherCategory={otherCategory}
                  otherCount={other.data?.length}
                />
              )}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <Button
                  variant="contained"
                  size="large"
                  startIcon={<VisibilityIcon />}
                  disabled={busy || isLoading || Boolean(error) || empty}
                  onClick={getPicture}
                >
                  {busy ? t('trainer.showingImage') : t('trainer.getPicture')}
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
                    {t('trainer.showAgain')}
                  </Button>
                )}
              </Stack>
              {trainer.lastFlash && (
                <Typography variant="body2" color="text.secondary" data-testid="last-flash">
                  {t(
                    trainer.lastFlash.aborted ? 'trainer.lastFlashEndedEarly' : 'trainer.lastFlash',
                    {
                      frames: trainer.lastFlash.shownFrames,
                      ms: new Intl.NumberFormat(i18n.language, { useGrouping: false }).format(
                        Math.round(trainer.lastFlash.shownMs),
                      ),
                    },
                  )}
                </Typography>
              )}
              {trainer.phase === 'showing' && (
                <Typography variant="body2" color="text.secondary">
                  {t('trainer.escapeHint')}
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
        label={t('trainer.pictureLabel')}
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
