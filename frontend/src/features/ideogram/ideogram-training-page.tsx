import { Box, Paper, Stack, Typography } from '@mui/material'
import { useCallback, useEffect, useEffectEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAuth, useSignInResume } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { ControlBar } from './components/control-bar.tsx'
import { CustomGestaltForm } from './components/custom-gestalt-form.tsx'
import { CustomWordList } from './components/custom-word-list.tsx'
import { GestaltCard, WaterLockedCard, gridSx } from './components/gestalt-grid.tsx'
import { HeaderControls } from './components/header-controls.tsx'
import { ModeToggle } from './components/mode-toggle.tsx'
import { useIdeogramTrainer } from './use-ideogram-trainer.ts'

const resumeKey = 'ideogram-custom-gestalt'

/** Elements where the space bar already means something (typing, pressing a control). */
function spaceBelongsTo(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  return (
    target.closest(
      'input, textarea, select, button, a[href], [role="button"], [role="slider"], [role="tab"], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitem"], [role="option"]',
    ) !== null
  )
}

/** Ideogram Training, the home page (spec §2). */
export function IdeogramTrainingPage() {
  usePageMeta('home')
  const { t } = useTranslation('ideogram')
  const trainer = useIdeogramTrainer()
  const { status, user, requireSignIn, openSignIn } = useAuth()
  const { toast } = useToast()
  const [text, setText] = useState('')
  const gridTitleId = useId()

  const generate = useCallback(
    async (word: string) => {
      if (await trainer.createCustomGestalt(word)) setText('')
    },
    [trainer],
  )

  const submitCustomGestalt = () => {
    const draft = text
    if (!user) {
      toast({
        title: t('toasts.authRequired'),
        description: t('toasts.signInToCreate'),
        variant: 'destructive',
      })
    }
    // Signed out: the text stays, the dialog opens, and generation runs after sign-in.
    requireSignIn(() => void generate(draft), { key: resumeKey, draft })
  }

  useSignInResume(resumeKey, (draft, { signedIn }) => {
    setText(draft)
    if (signedIn) void generate(draft)
  })

  const onSpace = useEffectEvent((event: KeyboardEvent) => {
    if (event.key !== ' ' || event.repeat || event.ctrlKey || event.altKey || event.metaKey) return
    if (spaceBelongsTo(event.target) || document.querySelector('[role="dialog"]')) return
    event.preventDefault()
    trainer.togglePlay()
  })
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onSpace(event)
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [])

  const basics = trainer.words.filter((w) => !w.custom)

  return (
    <PageContainer>
      <HeaderControls trainer={trainer} />
      <Stack sx={{ gap: 3, pb: 14 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', gap: 2 }}
        >
          <Box>
            <Typography variant="h4" component="h1">
              {t('page.title')}
            </Typography>
            <Typography color="text.secondary">{t('page.intro')}</Typography>
          </Box>
          <ModeToggle mode={trainer.mode} onChange={trainer.setMode} />
        </Stack>

        <Paper variant="outlined" component="section" aria-labelledby={gridTitleId} sx={{ p: 2 }}>
          <Typography id={gridTitleId} variant="h6" component="h2" gutterBottom>
            {t('page.basicGestalts')}
          </Typography>
          <Box sx={gridSx}>
            {basics.map((word) => (
              <GestaltCard
                key={word.id}
                word={word}
                onToggle={trainer.toggleWord}
                onLevel={trainer.setLevel}
              />
            ))}
            {!user && !basics.some((w) => w.id === 'water') ? (
              <WaterLockedCard onUnlock={openSignIn} />
            ) : null}
          </Box>
        </Paper>

        <CustomGestaltForm
          text={text}
          onText={setText}
          onSubmit={submitCustomGestalt}
          generating={trainer.generating}
          signedOut={status === 'signedOut'}
        />

        <CustomWordList
          words={trainer.customWords}
          onToggle={trainer.toggleWord}
          onLevel={trainer.setLevel}
          onDelete={(word) => void trainer.deleteCustomGestalt(word)}
        />
      </Stack>
      <ControlBar trainer={trainer} />
    </PageContainer>
  )
}
