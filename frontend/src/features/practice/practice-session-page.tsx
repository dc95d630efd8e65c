import LockIcon from '@mui/icons-material/Lock'
import {
  Alert,
  AlertTitle,
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
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { paths } from '../../config/paths.ts'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import { onDemand, usePreloadWhenIdle } from '../../lib/on-demand.tsx'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import {
  useGetPracticeSessionQuery,
  useJudgePracticeSessionMutation,
  useLockPracticeSessionMutation,
  useSavePracticeWriteUpMutation,
} from './api.ts'
import type { PracticeReveal, PracticeSession, PracticeWriteUp } from './api.ts'
import { PicturesSeenNote } from './components/pictures-seen-note.tsx'
import { ReceiptButton } from './components/receipt-button.tsx'
import { RevealPanel } from './components/reveal-panel.tsx'
import { WriteUpEditor } from './components/write-up-editor.tsx'
import { practiceLanguage } from './preferences.ts'
import { receiptOf } from './receipt.ts'
import { useAutosave } from './use-autosave.ts'
import { formatDateTime, formatLst } from './format.ts'
import type { SaveState } from './use-autosave.ts'
import { commitmentsToCheck, useKeptCommitments, useRevealCheck } from './use-reveal-check.ts'

/**
 * What only the lock shows: the judging (the candidates, the full-screen view, the
 * confirmation) and the description-only switch of the lock's dialog. Their code is fetched
 * when the page is idle, or when they are first drawn.
 */
const JudgePanel = onDemand(
  () => import('./components/judge-panel.tsx').then((m) => m.JudgePanel),
  () => true,
)
const DescriptionOnlySwitch = onDemand(
  () => import('./components/description-only-switch.tsx').then((m) => m.DescriptionOnlySwitch),
  () => true,
)
const onDemandParts = [JudgePanel, DescriptionOnlySwitch] as const

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
  usePreloadWhenIdle(onDemandParts)
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
  // Locked here (not found locked at the load): the candidates are brought into view.
  const [lockedHere, setLockedHere] = useState(false)
  // The judging's own answer is what the page reveals and checks (the session, refetched
  // after it, says the same unless something is wrong); the ranking sent, until it is back.
  const [judged, setJudged] = useState<{ reveal: PracticeReveal; ranking: string[] } | null>(null)
  const reveal = judged?.reveal ?? session.reveal
  const kept = useKeptCommitments(id)
  const { commitment, candidateCommitment } = session
  const against = useMemo(
    () =>
      kept === undefined
        ? undefined
        : commitmentsToCheck(kept, { commitment, candidateCommitment }),
    [kept, commitment, candidateCommitment],
  )
  const { check, retry } = useRevealCheck(reveal, session.candidates, against)

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
      setLockedHere(true)
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
      setJudged({
        reveal: await judge({ id, practiceJudgeRequest: { ranking } }).unwrap(),
        ranking,
      })
      refetch()
    } catch (err) {
      toast({
        title: t('session.judgeFailed'),
        description: errorMessage(err, t('session.tryAgain')),
        variant: 'destructive',
      })
      // Closed as abandoned meanwhile: the page shows it so.
      if (errorCode(err) === 'session_abandoned') refetch()
    }
  }

  const abandoned = session.status === 'abandoned'
  // Made once the kept copy has been looked for, and (after the judging) once the session
  // itself says judged, so the receipt carries the judging's time.
  const receipt =
    against && !(judged && session.status !== 'judged')
      ? receiptOf({
          trn: session.trn,
          sessionId: id,
          startedAt: session.startedAt,
          lockedAt: session.lockedAt,
          judgedAt: session.judgedAt,
          candidateCount: session.candidateCount,
          frontloading: session.frontloading,
          commitments: against,
          writeUp: open ? writeUp : session.writeUp,
          writeUpSha256: session.writeUpSha256,
          candidates: session.candidates,
          served: check?.status === 'done' ? check.result.served : undefined,
          ranking: session.ranking ?? judged?.ranking,
          reveal,
        })
      : null

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
          {session.candidateCommitment ? (
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {t('session.candidateCommitment', { commitment: session.candidateCommitment })}
            </Typography>
          ) : null}
          {kept === undefined ? null : (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {kept
                ? t('session.keptOnDevice', { date: formatDateTime(i18n.language, kept.keptAt) })
                : t('session.notKeptOnDevice')}
            </Typography>
          )}
          <ReceiptButton receipt={receipt} />
          <PicturesSeenNote seen={session.picturesSeen} />
        </Box>
        {abandoned ? (
          <Alert severity="warning">
            <AlertTitle>{t('session.abandonedTitle')}</AlertTitle>
            {t('session.abandonedText', {
              date: formatDateTime(i18n.language, session.abandonedAt ?? session.updatedAt),
            })}
          </Alert>
        ) : null}
        <WriteUpEditor
          value={writeUp}
          onChange={change}
          readOnly={!open}
          language={writeUp.language ?? practiceLanguage()}
        />
        {session.status === 'locked' && session.candidates && !judged ? (
          <JudgePanel
            candidates={session.candidates}
            judging={judging.isLoading}
            scrollIntoView={lockedHere}
            onJudge={(ranking) => void doJudge(ranking)}
          />
        ) : null}
        {reveal ? (
          <RevealPanel reveal={reveal} check={check} against={against} onRetry={retry} />
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
          <DialogContentText sx={{ mb: 2 }}>{t('session.lockText')}</DialogContentText>
          <DescriptionOnlySwitch />
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
