import LockIcon from '@mui/icons-material/Lock'
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  Typography,
} from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { paths } from '../../config/paths.ts'
import { errorMessage } from '../../lib/api/index.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useGetPracticeSessionQuery,
  useJudgePracticeSessionMutation,
  useLockPracticeSessionMutation,
  useSavePracticeWriteUpMutation,
} from './api.ts'
import type { PracticeSession, PracticeWriteUp } from './api.ts'
import { JudgePanel } from './components/judge-panel.tsx'
import { RevealPanel } from './components/reveal-panel.tsx'
import { WriteUpEditor } from './components/write-up-editor.tsx'
import { judgeByText, practiceLanguage } from './preferences.ts'
import { useAutosave } from './use-autosave.ts'
import { formatLst } from './format.ts'
import type { SaveState } from './use-autosave.ts'

/** The autosave's states, as keys of the save labels (translated at render). */
const SAVE_LABELS = {
  saved: 'session.saveState.saved',
  saving: 'session.saveState.saving',
  unsaved: 'session.saveState.unsaved',
  offline: 'session.saveState.offline',
  conflict: 'session.saveState.conflict',
} as const satisfies Record<SaveState, string>

/** When the session started, in UTC, in the interface language. */
const startedUtc = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(iso))

/** One session: the write-up (autosaved), then the lock, the judging and the reveal. */
export function PracticeSessionPage() {
  usePageMeta('practiceSession')
  const { t } = useTranslation('practice')
  const { id = '' } = useParams()
  // Asked once the session is known: before that a reload would ask without a token (a 401).
  const { status } = useAuth()
  const {
    data: session,
    isLoading,
    error,
    refetch,
  } = useGetPracticeSessionQuery(status === 'restoring' ? skipToken : { id })
  // Each load of the server's write-up starts the editor afresh (after a conflict, for one).
  const [generation, setGeneration] = useState(0)
  const reload = useCallback(() => {
    void refetch().then(() => setGeneration((g) => g + 1))
  }, [refetch])

  if (isLoading || status === 'restoring') {
    return (
      <PageContainer>
        <CircularProgress aria-label={t('session.loading')} />
      </PageContainer>
    )
  }
  if (error || !session) {
    return (
      <PageContainer>
        <Alert severity="error">
          {errorMessage(error, t('session.loadFailed'))}{' '}
          <RouterLink to={paths.practice}>{t('session.backToPractice')}</RouterLink>
        </Alert>
      </PageContainer>
    )
  }
  return (
    <SessionView
      key={`${session.id}-${generation}`}
      session={session}
      reload={reload}
      refetch={() => void refetch()}
    />
  )
}

function SessionView({
  session,
  reload,
  refetch,
}: {
  session: PracticeSession
  reload: () => void
  refetch: () => void
}) {
  const { id } = session
  const { t, i18n } = useTranslation('practice')
  const { toast } = useToast()
  const [saveWriteUp] = useSavePracticeWriteUpMutation()
  const [lock, locking] = useLockPracticeSessionMutation()
  const [judge, judging] = useJudgePracticeSessionMutation()
  const [writeUp, setWriteUp] = useState<PracticeWriteUp>(session.writeUp)
  const [confirmLock, setConfirmLock] = useState(false)

  const save = useCallback(
    (next: PracticeWriteUp, revision: number) =>
      saveWriteUp({ id, practiceWriteUpSave: { writeUp: next, revision } }).unwrap(),
    [id, saveWriteUp],
  )
  const onConflict = useCallback(() => {
    toast({
      title: t('session.conflictTitle'),
      description: t('session.conflictDescription'),
    })
    reload()
  }, [reload, toast, t])
  const autosave = useAutosave(session.revision, save, onConflict)

  const open = session.status === 'open'
  const change = (next: PracticeWriteUp) => {
    setWriteUp(next)
    autosave.change(next)
  }
  const doLock = async () => {
    setConfirmLock(false)
    await autosave.flush()
    try {
      await lock({ id }).unwrap()
      refetch()
    } catch (err) {
      toast({
        title: t('session.lockFailed'),
        description: errorMessage(err, t('session.tryAgain')),
        variant: 'destructive',
      })
    }
  }
  const doJudge = async (ranking: string[]) => {
    try {
      await judge({ id, practiceJudgeRequest: { ranking } }).unwrap()
      refetch()
    } catch (err) {
      toast({
        title: t('session.judgeFailed'),
        description: errorMessage(err, t('session.tryAgain')),
        variant: 'destructive',
      })
    }
  }

  return (
    <PageContainer>
      <Stack spacing={2}>
        <Box>
          <Typography variant="h4" component="h1">
            {t('session.heading', { trn: session.trn })}
          </Typography>
          <Typography color="text.secondary">
            {t('session.started', { date: startedUtc(i18n.language, session.startedAt) })} ·{' '}
            {formatLst(session.lstHours)}
            {session.frontloading
              ? ` · ${t('session.frontloading', { hint: session.frontloading })}`
              : ''}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {t('session.commitment', { commitment: session.commitment })}
          </Typography>
        </Box>
        <WriteUpEditor
          value={writeUp}
          onChange={change}
          readOnly={!open}
          language={writeUp.language ?? practiceLanguage()}
        />
        {session.status === 'locked' && session.candidates ? (
          <JudgePanel
            candidates={session.candidates}
            byText={judgeByText()}
            judging={judging.isLoading}
            onJudge={(ranking) => void doJudge(ranking)}
          />
        ) : null}
        {session.reveal ? (
          <RevealPanel reveal={session.reveal} commitment={session.commitment} />
        ) : null}
      </Stack>
      {open ? (
        <Paper
          elevation={8}
          sx={{
            position: 'sticky',
            bottom: 0,
            mt: 2,
            p: 1.5,
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            flexWrap: 'wrap',
          }}
        >
          <Typography role="status" aria-live="polite" sx={{ flex: 1 }}>
            {t(SAVE_LABELS[autosave.state])}
          </Typography>
          <Button
            variant="contained"
            startIcon={
              locking.isLoading ? <CircularProgress size={18} aria-hidden /> : <LockIcon />
            }
            disabled={locking.isLoading}
            onClick={() => setConfirmLock(true)}
            sx={{ minHeight: 44 }}
          >
            {t('session.lockAndSee')}
          </Button>
        </Paper>
      ) : null}
      <Dialog open={confirmLock} onClose={() => setConfirmLock(false)}>
        <DialogTitle>{t('session.lockTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('session.lockText')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmLock(false)}>{t('session.keepWriting')}</Button>
          <Button variant="contained" onClick={() => void doLock()}>
            {t('session.lock')}
          </Button>
        </DialogActions>
      </Dialog>
    </PageContainer>
  )
}
