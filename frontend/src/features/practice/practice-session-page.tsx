import LockIcon from '@mui/icons-material/Lock'
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Typography,
} from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router-dom'
import { useAuth } from '../../components/auth/index.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { PageContainer } from '../../components/page-container.tsx'
import { useToast } from '../../components/toast/index.ts'
import { paths } from '../../config/paths.ts'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import { dropDraft, readDraft } from '../../lib/offline/draft-store.ts'
import { onDemand, usePreloadWhenIdle } from '../../lib/on-demand.tsx'
import { scrollClearOf } from '../../lib/scroll-clear-of.ts'
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
import { UnsavedAfterLock, WriteUpConflict } from './components/write-up-conflict.tsx'
import { WriteUpEditor } from './components/write-up-editor.tsx'
import { practiceLanguage } from './preferences.ts'
import { receiptOf } from './receipt.ts'
import { useAutosave } from './use-autosave.ts'
import { formatDateTime, formatLst } from './format.ts'
import type { SaveState } from './use-autosave.ts'
import { commitmentsToCheck, useKeptCommitments, useRevealCheck } from './use-reveal-check.ts'
import { sameWriteUp, startingPoint } from './write-up-drafts.ts'
import type { WriteUpDraft } from './write-up-drafts.ts'

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
  retrying: 'session.saveState.retrying',
  conflict: 'session.saveState.conflict',
  refused: 'session.saveState.refused',
  closed: 'session.saveState.closed',
} as const satisfies Record<SaveState, string>

/** When the session started, in UTC, in the interface language. */
const startedUtc = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(iso))

/**
 * The draft this device keeps of the session's write-up for `userId`: undefined while it is
 * read, null when there is none.
 */
function useKeptDraft(userId: string | null, sessionId: string) {
  const wanted = `${userId ?? ''}/${sessionId}`
  const [found, setFound] = useState<{ for: string; draft: WriteUpDraft | null }>()
  useEffect(() => {
    let live = true
    const read = userId ? readDraft<PracticeWriteUp>(userId, sessionId) : Promise.resolve(null)
    void read.then((draft) => {
      if (live) setFound({ for: wanted, draft })
    })
    return () => {
      live = false
    }
  }, [userId, sessionId, wanted])
  return found?.for === wanted ? found.draft : undefined
}

/**
 * One session: the write-up (kept on this device at every change, autosaved), then the lock,
 * the judging and the reveal. Opened without a network, it comes from the service worker's
 * copy of the session with this device's draft over it.
 */
export function PracticeSessionPage() {
  usePageMeta('practiceSession')
  usePreloadWhenIdle(onDemandParts)
  const { t } = useTranslation('practice')
  const { id = '' } = useParams()
  // Asked once the session is known: before that a reload would ask without a token (a 401).
  const { status, user } = useAuth()
  const {
    data: session,
    isLoading,
    error,
    refetch,
  } = useGetPracticeSessionQuery(status === 'restoring' ? skipToken : { id })
  const userId = user?.id ?? null
  const draft = useKeptDraft(userId, id)
  // Not loaded (no network and no copy kept): asked again once the network is back.
  useEffect(() => {
    if (!error) return
    const again = () => void refetch()
    window.addEventListener('online', again)
    return () => window.removeEventListener('online', again)
  }, [error, refetch])

  if (isLoading || status === 'restoring' || draft === undefined) {
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
      key={`${userId ?? ''}/${session.id}`}
      session={session}
      userId={userId}
      draft={draft}
      refetch={refetch}
    />
  )
}

function SessionView({
  session,
  userId,
  draft,
  refetch,
}: {
  session: PracticeSession
  userId: string | null
  draft: WriteUpDraft | null
  refetch: ReturnType<typeof useGetPracticeSessionQuery>['refetch']
}) {
  const { id } = session
  const { t, i18n } = useTranslation('practice')
  const { toast } = useToast()
  const [saveWriteUp] = useSavePracticeWriteUpMutation()
  const [lock, locking] = useLockPracticeSessionMutation()
  const [judge, judging] = useJudgePracticeSessionMutation()
  // Where this view starts: the server's copy, or this device's draft where it is newer.
  const [start] = useState(() => startingPoint(session, draft))
  const [leftOver, setLeftOver] = useState(start.leftOver)
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
  const latest = useCallback(async () => {
    const now = await refetch().unwrap()
    return { writeUp: now.writeUp, revision: now.revision }
  }, [refetch])
  // Locked or closed meanwhile (on another device): the page shows it so, and what this
  // device had not saved beside it.
  const onClosed = useCallback(
    (unsaved: PracticeWriteUp) => {
      setLeftOver(unsaved)
      void refetch()
    },
    [refetch],
  )
  const autosave = useAutosave({ userId, sessionId: id, start, save, latest, onClosed })
  const writeUp = autosave.writeUp

  const open = session.status === 'open'
  const unsavedAfterLock =
    !open && leftOver && !sameWriteUp(leftOver, session.writeUp) ? leftOver : null
  // Closed, with nothing of this device's left out of it: its copy is no longer needed.
  useEffect(() => {
    if (!open && !unsavedAfterLock && userId) void dropDraft(userId, id)
  }, [open, unsavedAfterLock, userId, id])
  const discardLeftOver = () => {
    if (userId) void dropDraft(userId, id)
    setLeftOver(null)
  }
  const doLock = async () => {
    setConfirmLock(false)
    // The lock fingerprints the server's copy: it must hold what this page shows.
    if (!(await autosave.flush())) {
      toast({
        title: t('session.lockFailed'),
        description: t('session.lockUnsaved'),
        variant: 'destructive',
      })
      return
    }
    try {
      await lock({ id }).unwrap()
      setLockedHere(true)
      void refetch()
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
      void refetch()
    } catch (err) {
      toast({
        title: t('session.judgeFailed'),
        description: errorMessage(err, t('session.tryAgain')),
        variant: 'destructive',
      })
      // Closed as abandoned meanwhile: the page shows it so.
      if (errorCode(err) === 'session_abandoned') void refetch()
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
        {open && autosave.theirs ? (
          <WriteUpConflict
            mine={writeUp}
            theirs={autosave.theirs.writeUp}
            onChoose={autosave.resolve}
          />
        ) : null}
        {unsavedAfterLock ? (
          <UnsavedAfterLock
            mine={unsavedAfterLock}
            locked={session.writeUp}
            onDiscard={discardLeftOver}
          />
        ) : null}
        <WriteUpEditor
          value={open ? writeUp : session.writeUp}
          onChange={autosave.change}
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
          ref={scrollClearOf}
          elevation={8}
          sx={{
            position: 'sticky',
            bottom: 0,
            // Above the write-up's fields: their labels sit on a layer of their own.
            zIndex: 'appBar',
            mt: 2,
            p: 1.5,
            display: 'flex',
            alignItems: 'center',
            gap: 2,
            flexWrap: 'wrap',
          }}
        >
          {/* Wide enough to read on a phone: the button goes below it there. */}
          <Typography role="status" aria-live="polite" sx={{ flex: '1 1 14rem' }}>
            {t(SAVE_LABELS[autosave.state], {
              reason: errorMessage(autosave.refusal, t('session.tryAgain')),
            })}
          </Typography>
          <Button
            variant="contained"
            startIcon={
              locking.isLoading ? <CircularProgress size={18} aria-hidden /> : <LockIcon />
            }
            disabled={locking.isLoading || autosave.state === 'conflict'}
            onClick={() => setConfirmLock(true)}
            sx={{ minHeight: 44 }}
          >
            {t('session.lockAndSee')}
          </Button>
        </Paper>
      ) : null}
      <ConfirmDialog
        open={confirmLock}
        title={t('session.lockTitle')}
        cancelLabel={t('session.keepWriting')}
        confirmLabel={t('session.lock')}
        maxWidth="sm"
        extra={
          <Box sx={{ mt: 2 }}>
            <DescriptionOnlySwitch />
          </Box>
        }
        onCancel={() => setConfirmLock(false)}
        onConfirm={() => void doLock()}
      >
        {t('session.lockText')}
      </ConfirmDialog>
    </PageContainer>
  )
}
