import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import StyleIcon from '@mui/icons-material/Style'
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material'
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import type {
  Descriptor,
  RandomDescriptorRequest,
  Stage,
  TrainingLanguage,
} from '../../lib/api/generated.ts'
import { useSessionRecorder } from '../../lib/history/use-session-recorder.ts'
import { onDemand, usePreloadWhenIdle } from '../../lib/on-demand.tsx'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  categoriesInStages,
  categoryKeyOf,
  drawLocally,
  keepShownSelection,
  openStage,
  relatedDescriptors,
  toggleSelection,
  toggleStage,
  trainingRequest,
  type Category,
} from './catalog.ts'
import { CategoryTable } from './components/category-table.tsx'
import { ExportButtons, ExportCard } from './components/export-card.tsx'
import { LanguageSelect } from './components/language-select.tsx'
import { StageFilter } from './components/stage-filter.tsx'
import { TrainingLanguageNote } from './components/training-language-note.tsx'
import { TrainingProtocolCard } from './components/training-protocol-card.tsx'
import {
  localStorageOrNothing,
  savePreferredLanguage,
  trainerLanguageWithReason,
  trainingLanguages,
} from './languages.ts'
import { defaultStagesFor, storedLanguage } from './trainer-defaults.ts'
import { useGetAppSettingsQuery, useGetReviewStatsQuery } from './api.ts'
import { startOfLocalDay } from './review-queue.ts'
import { useDescriptorCatalog } from './use-descriptor-catalog.ts'
import { useLanguageName } from './use-language-name.ts'
import { useReviewSession } from './use-review-session.ts'
import { nothingSelectedText, useTrainingSession } from './use-training-session.ts'
import { unlockAudio } from './voice/audio-player.ts'
import { useVoiceSetting } from './voice/voice-setting.ts'
import { VoiceToggle } from './voice/voice-toggle.tsx'

/** How many related words 'Reveal More Descriptors' shows at most. */
const relatedLimit = 12

// The dialogs, and the voice assistant inside the session dialogs, are opened by a click: their
// code is fetched once the page is idle, or at the click if that comes first. Closed, they draw
// nothing, in the pre-rendered page as in the app.
const TrainingDialog = onDemand(
  () => import('./components/voiced-training-dialog.tsx').then((m) => m.VoicedTrainingDialog),
  (props) => props.session.running,
)
const ReviewDialog = onDemand(
  () => import('./components/voiced-review-dialog.tsx').then((m) => m.VoicedReviewDialog),
  (props) => props.session.open,
)
const AllDescriptorsDialog = onDemand(
  () => import('./components/all-descriptors-dialog.tsx').then((m) => m.AllDescriptorsDialog),
  (props) => props.open,
)
const AddWordDialog = onDemand(
  () => import('./components/add-word-dialog.tsx').then((m) => m.AddWordDialog),
  (props) => props.open,
)
const onDemandParts = [
  TrainingDialog,
  ReviewDialog,
  AllDescriptorsDialog,
  AddWordDialog,
  ExportButtons,
] as const

type OpenDialog = { kind: 'viewAll' | 'addWord'; open: boolean; category: Category }

/** The descriptor trainer (spec §2): open to everyone, Stage 2-3 and 4-6 after sign-in. */
export function DescriptorTrainingPage() {
  usePageMeta('descriptorTraining')
  const { status, user, requireSignIn, openSignIn } = useAuth()
  const { t, i18n } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const signedIn = user !== null
  // Until the visitor chooses, the interface language (when the trainer has it) or else the
  // administrator's defaults (admin panel settings) apply.
  const settings = useGetAppSettingsQuery().data
  const [languageChoice, setLanguage] = useState<TrainingLanguage | null>(() =>
    storedLanguage(localStorageOrNothing()),
  )
  const trainedIn = trainerLanguageWithReason({
    choice: languageChoice,
    interfaceLanguage: i18n.language,
    adminDefault: settings?.defaultLanguage,
  })
  const { language } = trainedIn
  const [stageChoice, setChosenStages] = useState<Stage[] | null>(null)
  const chosenStages = useMemo(
    () => stageChoice ?? defaultStagesFor(settings?.defaultStage, signedIn),
    [stageChoice, settings?.defaultStage, signedIn],
  )
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set())
  const [alert, setAlert] = useState<string | null>(null)
  const [dialog, setDialog] = useState<OpenDialog | null>(null)
  const categoriesTitleId = useId()
  const startButton = useRef<HTMLButtonElement>(null)
  const reviewButton = useRef<HTMLButtonElement>(null)

  const catalog = useDescriptorCatalog(language)
  const shown = useMemo(
    () => categoriesInStages(catalog.categories, chosenStages),
    [catalog.categories, chosenStages],
  )
  const categoryByKey = useMemo(
    () => new Map(catalog.categories.map((c) => [c.key, c])),
    [catalog.categories],
  )
  const lockedTeaser = useMemo(
    () => (status === 'signedOut' ? catalog.categories.filter((c) => c.stage !== openStage) : null),
    [status, catalog.categories],
  )
  const trainingLanguage =
    trainingLanguages.find((l) => l.code === language) ?? trainingLanguages[0]
  // The dialogs name the language in the interface's words.
  const languageOption = trainingLanguage
    ? { ...trainingLanguage, name: languageName(trainingLanguage).name }
    : undefined
  const selectedCount = shown.filter((c) => selected.has(c.key)).length

  const buildRequest = useCallback(
    (excludeId: number | undefined) =>
      trainingRequest({ selected, shown, stages: chosenStages, language, excludeId }),
    [selected, shown, chosenStages, language],
  )
  const relatedFor = useCallback(
    (descriptor: Descriptor) => {
      const key = categoryKeyOf(descriptor, selected)
      const visible = key ? (catalog.words.get(key)?.visible ?? []) : []
      return relatedDescriptors(visible, descriptor, relatedLimit)
    },
    [catalog.words, selected],
  )
  const categoryOf = useCallback(
    (descriptor: Descriptor) => {
      const key = categoryKeyOf(descriptor, selected)
      return key ? categoryByKey.get(key) : undefined
    },
    [categoryByKey, selected],
  )
  // Reviews: every due word of the language, then new words of the selected categories.
  const reviewRequest = useCallback(() => {
    const chosen = shown.filter((c) => selected.has(c.key))
    const ids = (type: 'gestalt' | 'perception') =>
      chosen.filter((c) => c.type === type).map((c) => c.id)
    return {
      language,
      stages: [...chosenStages],
      gestaltIds: ids('gestalt'),
      perceptionIds: ids('perception'),
      dayStartsAt: startOfLocalDay(),
    }
  }, [shown, selected, chosenStages, language])
  const review = useReviewSession(user?.id ?? null, reviewRequest)
  const reviewStats = useGetReviewStatsQuery(
    { language, dayStartsAt: startOfLocalDay() },
    { skip: !signedIn },
  )
  const onNothingSelected = useCallback(() => setAlert(nothingSelectedText()), [])
  const drawOffline = useCallback(
    (request: RandomDescriptorRequest) => drawLocally(request, catalog.categories, catalog.words),
    [catalog.categories, catalog.words],
  )
  const training = useTrainingSession({
    buildRequest,
    relatedFor,
    onNothingSelected,
    drawOffline,
  })
  // A signed-in user's training session goes to their history: its length, language,
  // categories and the words shown.
  const recordSession = useSessionRecorder()
  const run = useRef<{ startedAt: number; words: Set<number>; categories: string[] } | null>(null)
  const shownId = training.session.descriptor?.id
  useEffect(() => {
    const running = training.session.running
    if (running && !run.current)
      run.current = { startedAt: Date.now(), words: new Set(), categories: [...selected] }
    if (running && run.current && shownId !== undefined) run.current.words.add(shownId)
    if (!running && run.current) {
      const done = run.current
      run.current = null
      recordSession({
        activity: 'descriptors',
        startedAt: new Date(done.startedAt).toISOString(),
        durationMs: Date.now() - done.startedAt,
        language,
        words: done.words.size,
        gestalts: done.categories.slice(0, 100),
      })
    }
  }, [training.session.running, shownId, selected, language, recordSession])
  const voice = useVoiceSetting()
  usePreloadWhenIdle(onDemandParts)

  // The table is the page's largest part: what the server's answers change in it is drawn in a
  // deferred pass that yields to the browser, not in the store update's blocking render.
  const tableNow = useMemo(
    () => ({
      categories: shown,
      words: catalog.words,
      loadingCategories: catalog.loadingCategories,
      loadingWords: catalog.loadingWords,
      lockedTeaser,
    }),
    [shown, catalog.words, catalog.loadingCategories, catalog.loadingWords, lockedTeaser],
  )
  const table = useDeferredValue(tableNow)
  const toggleCategory = useCallback(
    (category: Category) => setSelected((current) => toggleSelection(current, category.key)),
    [],
  )
  const viewAll = useCallback(
    (category: Category) =>
      requireSignIn(() => setDialog({ kind: 'viewAll', open: true, category })),
    [requireSignIn],
  )
  const addWord = useCallback(
    (category: Category) => setDialog({ kind: 'addWord', open: true, category }),
    [],
  )

  function changeLanguage(next: TrainingLanguage) {
    setLanguage(next)
    savePreferredLanguage(localStorageOrNothing(), next)
    // A new language starts a new choice of categories (spec §4).
    setSelected(new Set())
  }

  function changeStages(next: Stage[]) {
    setChosenStages(next)
    setSelected((current) =>
      keepShownSelection(current, categoriesInStages(catalog.categories, next)),
    )
  }

  function onStageToggle(stage: Stage) {
    if (stage === openStage || signedIn) {
      changeStages(toggleStage(chosenStages, stage))
      return
    }
    // After signing in the stage the visitor asked for is added.
    requireSignIn(() =>
      setChosenStages((current) =>
        toggleStage(current ?? defaultStagesFor(settings?.defaultStage, false), stage),
      ),
    )
  }

  function onStart() {
    setAlert(null)
    // In the click: a word spoken later by a timer may then sound (autoplay rules).
    unlockAudio()
    training.start()
  }

  function onReview() {
    setAlert(null)
    requireSignIn(() => {
      unlockAudio()
      review.start()
    })
  }

  function onReviewEnd() {
    review.end()
    if (signedIn) void reviewStats.refetch()
    requestAnimationFrame(() => reviewButton.current?.focus())
  }

  function onEnd() {
    training.end()
    // Once it is visible again: a hidden button cannot take the focus.
    requestAnimationFrame(() => startButton.current?.focus())
  }

  const closeDialog = () => setDialog((d) => (d ? { ...d, open: false } : d))

  return (
    // Room at the bottom for the phone's start bar.
    <PageContainer sx={{ pb: { xs: 12, sm: 5 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'flex-start' } }}
      >
        <Box>
          <Typography variant="h4" component="h1" gutterBottom>
            {t('trainer.title')}
          </Typography>
          <Typography color="text.secondary">{t('trainer.intro')}</Typography>
        </Box>
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', flexShrink: 0, flexWrap: 'wrap', rowGap: 1.5 }}
        >
          <VoiceToggle voice={voice} />
          <LanguageSelect value={language} onChange={changeLanguage} />
          {/* On a phone the button rides in a bar at the bottom of the screen, within reach
              of the checkboxes far below. */}
          <Box
            sx={{
              position: { xs: 'fixed', sm: 'static' },
              left: 0,
              right: 0,
              bottom: 0,
              zIndex: 'appBar',
              p: { xs: 1.5, sm: 0 },
              bgcolor: { xs: 'background.paper', sm: 'transparent' },
              boxShadow: { xs: 8, sm: 'none' },
              display: 'flex',
            }}
          >
            <Button
              ref={reviewButton}
              variant="outlined"
              size="large"
              startIcon={<StyleIcon />}
              onClick={onReview}
              sx={{ mr: 1.5, flexGrow: { xs: 1, sm: 0 } }}
            >
              {signedIn && reviewStats.data && reviewStats.data.dueNow > 0
                ? t('trainer.reviewDue', { count: reviewStats.data.dueNow })
                : t('trainer.review')}
            </Button>
            {/* Hidden, not removed, while a session runs: ending the session gives it the focus back. */}
            <Button
              ref={startButton}
              variant="contained"
              size="large"
              startIcon={<PlayArrowIcon />}
              disabled={selectedCount === 0}
              onClick={onStart}
              sx={{
                visibility: training.session.running ? 'hidden' : 'visible',
                flexGrow: { xs: 1, sm: 0 },
              }}
            >
              {t('trainer.startTraining')}
            </Button>
          </Box>
        </Stack>
      </Stack>
      <TrainingLanguageNote {...trainedIn} />

      {alert ? (
        <Alert severity="warning" onClose={() => setAlert(null)} sx={{ mt: 3 }}>
          {alert}
        </Alert>
      ) : null}

      <Paper variant="outlined" sx={{ mt: 3, p: { xs: 2, sm: 2.5 } }}>
        <StageFilter
          chosen={chosenStages}
          locked={status === 'signedOut'}
          onToggle={onStageToggle}
        />
      </Paper>

      <Box component="section" aria-labelledby={categoriesTitleId} sx={{ mt: 3 }}>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 1.5, gap: 2 }}
        >
          <Typography id={categoriesTitleId} variant="h6" component="h2">
            {t('trainer.categoriesTitle')}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            aria-live="polite"
            sx={{ whiteSpace: 'nowrap' }}
          >
            {t('trainer.selectedCount', { count: selectedCount })}
          </Typography>
        </Stack>
        {catalog.failure ? (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={catalog.retry}>
                {t('tryAgain')}
              </Button>
            }
          >
            {catalog.failure}
          </Alert>
        ) : null}
        <CategoryTable
          categories={table.categories}
          words={table.words}
          loadingCategories={table.loadingCategories}
          loadingWords={table.loadingWords}
          selected={selected}
          onToggle={toggleCategory}
          canAddWords={signedIn}
          onViewAll={viewAll}
          onAddWord={addWord}
          lockedTeaser={table.lockedTeaser}
          onUnlock={openSignIn}
        />
      </Box>

      <Box
        sx={{
          mt: 4,
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' },
          alignItems: 'stretch',
        }}
      >
        <TrainingProtocolCard />
        {status === 'restoring' ? <Box /> : <ExportCard signedIn={signedIn} />}
      </Box>

      <AllDescriptorsDialog
        open={dialog?.kind === 'viewAll' && dialog.open}
        category={dialog?.kind === 'viewAll' ? dialog.category : null}
        words={dialog ? catalog.words.get(dialog.category.key) : undefined}
        loading={catalog.loadingWords}
        userId={user?.id ?? null}
        onClose={closeDialog}
      />
      <AddWordDialog
        open={dialog?.kind === 'addWord' && dialog.open}
        category={dialog?.kind === 'addWord' ? dialog.category : null}
        language={language}
        onClose={closeDialog}
      />
      {languageOption ? (
        <ReviewDialog
          session={review.session}
          language={languageOption}
          categoryOf={categoryOf}
          onReveal={review.reveal}
          onAnswer={review.answer}
          onEnd={onReviewEnd}
          voice={voice}
        />
      ) : null}
      {languageOption ? (
        <TrainingDialog
          session={training.session}
          language={languageOption}
          categoryOf={categoryOf}
          onNext={training.next}
          onReveal={training.reveal}
          onEnd={onEnd}
          voice={voice}
        />
      ) : null}
    </PageContainer>
  )
}
