import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../../../lib/api/index.ts'
import {
  useJudgePracticeTrialMutation,
  useLockPracticeTrialMutation,
  useStartPracticeTrialMutation,
} from '../api.ts'
import type { PracticeCandidate, PracticeReveal, PracticeWriteUp } from '../api.ts'
import { keepCommitments, trialKey } from '../commitment-store.ts'
import { formatDateTime } from '../format.ts'
import { practiceLanguage } from '../preferences.ts'
import { receiptOf } from '../receipt.ts'
import { commitmentsToCheck, useKeptCommitments, useRevealCheck } from '../use-reveal-check.ts'
import { DescriptionOnlySwitch } from './description-only-switch.tsx'
import { JudgePanel } from './judge-panel.tsx'
import { ReceiptButton } from './receipt-button.tsx'
import { RevealPanel } from './reveal-panel.tsx'
import { WriteUpEditor } from './write-up-editor.tsx'

interface Trial {
  trn: string
  commitment: string
  candidateCommitment: string
  startedAt: string
  candidateCount: 5 | 10
  frontloading: string | null
  token: string
  writeUp: PracticeWriteUp
  /** From the lock: the hash the server bound into the token. */
  writeUpSha256?: string
  candidates?: PracticeCandidate[]
  ranking?: string[]
  reveal?: PracticeReveal
}

const KEY = 'crv-practice-trial'

/** The trial of this tab; one started before candidate sets were committed is dropped. */
function stored(): Trial | null {
  try {
    const text = sessionStorage.getItem(KEY)
    const trial = text ? (JSON.parse(text) as Partial<Trial>) : null
    return trial?.candidateCommitment && trial.startedAt ? (trial as Trial) : null
  } catch {
    return null
  }
}

/** A visitor's session: nothing saved on the server; the write-up lives in this tab only. */
export function TrialRunner({ onSignIn }: { onSignIn: () => void }) {
  const { t } = useTranslation('practice')
  const [trial, setTrial] = useState<Trial | null>(stored)
  const [start, starting] = useStartPracticeTrialMutation()
  const [lock, locking] = useLockPracticeTrialMutation()
  const [judge, judging] = useJudgePracticeTrialMutation()
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    if (trial) sessionStorage.setItem(KEY, JSON.stringify(trial))
  }, [trial])

  const begin = async () => {
    setFailure(null)
    try {
      const started = await start().unwrap()
      // Kept before the trial is shown: the reveal is checked against this copy.
      await keepCommitments({
        key: trialKey(started.trn, started.startedAt),
        sessionId: null,
        trn: started.trn,
        commitment: started.commitment,
        candidateCommitment: started.candidateCommitment,
        startedAt: started.startedAt,
        candidateCount: started.candidateCount,
        frontloading: started.frontloading,
      })
      setTrial({
        trn: started.trn,
        commitment: started.commitment,
        candidateCommitment: started.candidateCommitment,
        startedAt: started.startedAt,
        candidateCount: started.candidateCount,
        frontloading: started.frontloading,
        token: started.token,
        writeUp: {},
      })
    } catch (err) {
      setFailure(errorMessage(err, t('trial.startFailed')))
    }
  }

  if (!trial) {
    return (
      <Stack spacing={2} sx={{ mb: 3 }}>
        {failure ? <Alert severity="warning">{failure}</Alert> : null}
        <Button
          variant="contained"
          onClick={() => void begin()}
          disabled={starting.isLoading}
          sx={{ alignSelf: 'flex-start', minHeight: 44 }}
        >
          {starting.isLoading ? (
            <CircularProgress size={18} aria-label={t('trial.starting')} />
          ) : (
            t('trial.start')
          )}
        </Button>
      </Stack>
    )
  }

  return (
    <TrialView
      key={`${trial.trn}@${trial.startedAt}`}
      trial={trial}
      setTrial={setTrial}
      failure={failure}
      setFailure={setFailure}
      onSignIn={onSignIn}
      lock={(writeUp) =>
        lock({ practiceTrialLockRequest: { token: trial.token, writeUp } }).unwrap()
      }
      locking={locking.isLoading}
      judge={(ranking) =>
        judge({
          practiceTrialJudgeRequest: { token: trial.token, ranking, writeUp: trial.writeUp },
        }).unwrap()
      }
      judging={judging.isLoading}
    />
  )
}

function TrialView({
  trial,
  setTrial,
  failure,
  setFailure,
  onSignIn,
  lock,
  locking,
  judge,
  judging,
}: {
  trial: Trial
  setTrial: (trial: Trial | null) => void
  failure: string | null
  setFailure: (failure: string | null) => void
  onSignIn: () => void
  lock: (
    writeUp: PracticeWriteUp,
  ) => Promise<{ token: string; writeUpSha256: string; candidates: PracticeCandidate[] }>
  locking: boolean
  judge: (ranking: string[]) => Promise<PracticeReveal>
  judging: boolean
}) {
  const { t, i18n } = useTranslation('practice')
  const kept = useKeptCommitments(trialKey(trial.trn, trial.startedAt))
  const { commitment, candidateCommitment } = trial
  const against = useMemo(
    () =>
      kept === undefined
        ? undefined
        : commitmentsToCheck(kept, { commitment, candidateCommitment }),
    [kept, commitment, candidateCommitment],
  )
  const { check, retry } = useRevealCheck(trial.reveal, trial.candidates, against)
  // Locked in this view (not restored locked from the tab's storage): candidates brought into view.
  const [lockedHere, setLockedHere] = useState(false)

  const doLock = async () => {
    setFailure(null)
    try {
      // The write-up goes with the lock: the server binds its hash into the token.
      const locked = await lock(trial.writeUp)
      setTrial({
        ...trial,
        token: locked.token,
        writeUpSha256: locked.writeUpSha256,
        candidates: locked.candidates,
      })
      setLockedHere(true)
    } catch (err) {
      setFailure(errorMessage(err, t('trial.lockFailed')))
    }
  }
  const doJudge = async (ranking: string[]) => {
    setFailure(null)
    try {
      const reveal = await judge(ranking)
      setTrial({ ...trial, ranking, reveal })
    } catch (err) {
      setFailure(errorMessage(err, t('trial.judgeFailed')))
    }
  }

  return (
    <Stack spacing={2} sx={{ mb: 3 }}>
      <Alert
        severity="info"
        action={
          <Button color="inherit" size="small" onClick={onSignIn}>
            {t('trial.signIn')}
          </Button>
        }
      >
        {t('trial.notice')}
      </Alert>
      <Box>
        <Typography variant="h5" component="h2">
          {t('session.heading', { trn: trial.trn })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {t('session.commitment', { commitment: trial.commitment })}
          {trial.frontloading
            ? ` · ${t('session.frontloading', { hint: trial.frontloading })}`
            : ''}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
          {t('session.candidateCommitment', { commitment: trial.candidateCommitment })}
        </Typography>
        {kept === undefined ? null : (
          <Typography variant="body2" color="text.secondary">
            {kept
              ? t('session.keptOnDevice', { date: formatDateTime(i18n.language, kept.keptAt) })
              : t('session.notKeptOnDevice')}
          </Typography>
        )}
      </Box>
      {failure ? <Alert severity="warning">{failure}</Alert> : null}
      <WriteUpEditor
        value={trial.writeUp}
        readOnly={!!trial.candidates}
        language={trial.writeUp.language ?? practiceLanguage()}
        onChange={(writeUp) => setTrial({ ...trial, writeUp })}
      />
      {!trial.candidates ? (
        <>
          <DescriptionOnlySwitch />
          <Button
            variant="contained"
            onClick={() => void doLock()}
            disabled={locking}
            sx={{ alignSelf: 'flex-start', minHeight: 44 }}
          >
            {t('session.lockAndSee')}
          </Button>
        </>
      ) : null}
      {trial.candidates && !trial.reveal ? (
        <JudgePanel
          candidates={trial.candidates}
          judging={judging}
          scrollIntoView={lockedHere}
          onJudge={(r) => void doJudge(r)}
        />
      ) : null}
      {trial.reveal ? (
        <>
          <RevealPanel reveal={trial.reveal} check={check} against={against} onRetry={retry} />
          <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap' }}>
            <ReceiptButton
              receipt={
                against
                  ? receiptOf({
                      trn: trial.trn,
                      sessionId: null,
                      startedAt: trial.startedAt,
                      candidateCount: trial.candidateCount,
                      frontloading: trial.frontloading,
                      commitments: against,
                      writeUp: trial.writeUp,
                      writeUpSha256: trial.writeUpSha256,
                      candidates: trial.candidates,
                      served: check?.status === 'done' ? check.result.served : undefined,
                      ranking: trial.ranking,
                      reveal: trial.reveal,
                    })
                  : null
              }
            />
            <Button
              onClick={() => {
                sessionStorage.removeItem(KEY)
                setTrial(null)
              }}
              sx={{ minHeight: 44 }}
            >
              {t('trial.another')}
            </Button>
          </Stack>
        </>
      ) : null}
    </Stack>
  )
}
