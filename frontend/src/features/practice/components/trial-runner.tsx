import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { errorMessage } from '../../../lib/api/index.ts'
import {
  useJudgePracticeTrialMutation,
  useLockPracticeTrialMutation,
  useStartPracticeTrialMutation,
} from '../api.ts'
import type { PracticeCandidate, PracticeReveal, PracticeWriteUp } from '../api.ts'
import { judgeByText, practiceLanguage } from '../preferences.ts'
import { JudgePanel } from './judge-panel.tsx'
import { RevealPanel } from './reveal-panel.tsx'
import { WriteUpEditor } from './write-up-editor.tsx'

interface Trial {
  trn: string
  commitment: string
  frontloading: string | null
  token: string
  writeUp: PracticeWriteUp
  candidates?: PracticeCandidate[]
  reveal?: PracticeReveal
}

const KEY = 'crv-practice-trial'

function stored(): Trial | null {
  try {
    const text = sessionStorage.getItem(KEY)
    return text ? (JSON.parse(text) as Trial) : null
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
      setTrial({
        trn: started.trn,
        commitment: started.commitment,
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

  const doLock = async () => {
    try {
      const locked = await lock({ practiceTrialToken: { token: trial.token } }).unwrap()
      setTrial({ ...trial, token: locked.token, candidates: locked.candidates })
    } catch (err) {
      setFailure(errorMessage(err, t('trial.lockFailed')))
    }
  }
  const doJudge = async (ranking: string[]) => {
    try {
      const reveal = await judge({
        practiceTrialJudgeRequest: { token: trial.token, ranking, writeUp: trial.writeUp },
      }).unwrap()
      setTrial({ ...trial, reveal })
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
      </Box>
      {failure ? <Alert severity="warning">{failure}</Alert> : null}
      <WriteUpEditor
        value={trial.writeUp}
        readOnly={!!trial.candidates}
        language={trial.writeUp.language ?? practiceLanguage()}
        onChange={(writeUp) => setTrial({ ...trial, writeUp })}
      />
      {!trial.candidates ? (
        <Button
          variant="contained"
          onClick={() => void doLock()}
          disabled={locking.isLoading}
          sx={{ alignSelf: 'flex-start', minHeight: 44 }}
        >
          {t('session.lockAndSee')}
        </Button>
      ) : null}
      {trial.candidates && !trial.reveal ? (
        <JudgePanel
          candidates={trial.candidates}
          byText={judgeByText()}
          judging={judging.isLoading}
          onJudge={(r) => void doJudge(r)}
        />
      ) : null}
      {trial.reveal ? (
        <>
          <RevealPanel reveal={trial.reveal} commitment={trial.commitment} />
          <Button
            onClick={() => {
              sessionStorage.removeItem(KEY)
              setTrial(null)
            }}
            sx={{ alignSelf: 'flex-start', minHeight: 44 }}
          >
            {t('trial.another')}
          </Button>
        </>
      ) : null}
    </Stack>
  )
}
