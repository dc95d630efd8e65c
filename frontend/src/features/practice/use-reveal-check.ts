import { useEffect, useMemo, useState } from 'react'
import type { PracticeCandidate, PracticeReveal } from './api.ts'
import { keptCommitments } from './commitment-store.ts'
import type { KeptCommitments } from './commitment-store.ts'
import { verifyReveal } from './verify.ts'
import type { CommitmentsToCheck, RevealVerification } from './verify.ts'

/**
 * The commitments kept on this device at the start (see commitment-store.ts): undefined while
 * being read, null when this device kept none.
 */
export function useKeptCommitments(key: string): KeptCommitments | null | undefined {
  const [found, setFound] = useState<{ key: string; kept: KeptCommitments | null } | null>(null)
  useEffect(() => {
    let live = true
    void keptCommitments(key).then((kept) => {
      if (live) setFound({ key, kept })
    })
    return () => {
      live = false
    }
  }, [key])
  return found?.key === key ? found.kept : undefined
}

/** What the reveal is checked against: the kept copy, else the server's (said so). */
export function commitmentsToCheck(
  kept: KeptCommitments | null,
  server: { commitment: string; candidateCommitment: string | null },
): CommitmentsToCheck {
  return kept
    ? {
        commitment: kept.commitment,
        candidateCommitment: kept.candidateCommitment,
        source: 'device',
        keptAt: kept.keptAt,
      }
    : { ...server, source: 'server', keptAt: null }
}

export type RevealCheck =
  | { status: 'checking' }
  | { status: 'done'; result: RevealVerification }
  | { status: 'error'; reason: string }

async function bytesOf(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url, { cache: 'no-store' })
  if (!response.ok) throw new Error(String(response.status))
  return response.arrayBuffer()
}

/**
 * The reveal's check, run as soon as the reveal and the commitments to check are there: every
 * picture fetched and hashed. `retry` runs it again (after a picture could not be fetched).
 */
export function useRevealCheck(
  reveal: PracticeReveal | null | undefined,
  candidates: PracticeCandidate[] | undefined,
  against: CommitmentsToCheck | undefined,
): { check: RevealCheck | null; retry: () => void } {
  const [attempt, setAttempt] = useState(0)
  const run = useMemo(
    () => (reveal && against ? { reveal, against, candidates: candidates ?? [], attempt } : null),
    [reveal, against, candidates, attempt],
  )
  const [outcome, setOutcome] = useState<{ run: object; check: RevealCheck } | null>(null)
  useEffect(() => {
    if (!run) return
    let live = true
    verifyReveal(run.reveal, run.against, run.candidates, bytesOf).then(
      (result) => {
        if (live) setOutcome({ run, check: { status: 'done', result } })
      },
      (error: unknown) => {
        if (live) setOutcome({ run, check: { status: 'error', reason: (error as Error).message } })
      },
    )
    return () => {
      live = false
    }
  }, [run])
  const check: RevealCheck | null = !run
    ? null
    : outcome?.run === run
      ? outcome.check
      : { status: 'checking' }
  return { check, retry: () => setAttempt((a) => a + 1) }
}
