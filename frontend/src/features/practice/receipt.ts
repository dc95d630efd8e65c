// The receipt a viewer downloads from a session or a trial (packages/contracts/src/practice-receipt.ts
// has the format and its checks; `npm run verify-receipt -- FILE` checks it offline).
import { RECEIPT_FORMAT } from '@crv/contracts/practice-receipt'
import type { PracticeReceipt } from '@crv/contracts/practice-receipt'
import { saveDownload } from '../../lib/download.ts'
import type { PracticeCandidate, PracticeReveal, PracticeWriteUp } from './api.ts'
import type { CommitmentsToCheck } from './verify.ts'

export interface ReceiptSource {
  trn: string
  sessionId: string | null
  startedAt: string
  lockedAt?: string | null | undefined
  judgedAt?: string | null | undefined
  candidateCount: number
  frontloading: string | null
  commitments: CommitmentsToCheck
  writeUp: PracticeWriteUp | null
  writeUpSha256?: string | null | undefined
  /** As shown at the lock. */
  candidates?: PracticeCandidate[] | undefined
  /** The hashes of the pictures as served, once the reveal's check has made them. */
  served?: { id: string; imageSha256: string }[] | undefined
  ranking?: string[] | null | undefined
  reveal?: PracticeReveal | null | undefined
}

/**
 * The receipt of what this page knows of the session. A candidate's hash is the one its served
 * picture gave when the reveal's check has fetched it, else the one the lock listed.
 */
export function receiptOf(source: ReceiptSource): PracticeReceipt {
  const served = new Map(source.served?.map((c) => [c.id, c.imageSha256]))
  const { reveal } = source
  return {
    format: RECEIPT_FORMAT,
    trn: source.trn,
    sessionId: source.sessionId,
    startedAt: source.startedAt,
    lockedAt: source.lockedAt ?? null,
    judgedAt: source.judgedAt ?? null,
    candidateCount: source.candidateCount,
    frontloading: source.frontloading,
    commitments: {
      commitment: source.commitments.commitment,
      candidateCommitment: source.commitments.candidateCommitment,
      source: source.commitments.source,
      keptAt: source.commitments.keptAt,
    },
    writeUp: source.writeUp,
    writeUpSha256: source.writeUpSha256 ?? null,
    candidates: (source.candidates ?? []).map((c) => ({
      id: c.id,
      imageSha256: served.get(c.id) ?? c.imageSha256,
    })),
    ranking: source.ranking ?? null,
    rank: reveal?.rank ?? null,
    reveal: reveal
      ? {
          targetId: reveal.targetId,
          imageSha256: reveal.imageSha256,
          nonce: reveal.nonce,
          analyticRank: reveal.analyticRank,
          score: {
            figureOfMerit: reveal.score.figureOfMerit,
            accuracy: reveal.score.accuracy,
            reliability: reveal.score.reliability,
          },
        }
      : null,
  }
}

export const receiptFileName = (receipt: PracticeReceipt) =>
  `crv-practice-receipt-${receipt.trn}${receipt.sessionId ? '' : '-trial'}.json`

export function downloadReceipt(receipt: PracticeReceipt): void {
  const text = `${JSON.stringify(receipt, null, 2)}\n`
  saveDownload(receiptFileName(receipt), new Blob([text], { type: 'application/json' }))
}
