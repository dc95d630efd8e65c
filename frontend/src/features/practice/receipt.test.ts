import { describe, expect, it } from 'vitest'
import { canonicalJson, verifyReceipt } from '@crv/contracts/practice-receipt'
import type { PracticeCandidate, PracticeReveal, PracticeWriteUp } from './api.ts'
import { receiptFileName, receiptOf } from './receipt.ts'
import type { ReceiptSource } from './receipt.ts'
import { sha256Hex } from './verify.ts'

const nonce = 'c'.repeat(64)
const writeUp: PracticeWriteUp = { language: 'fr', summary: 'une tour près de l’eau' }

/** A judged session as the page holds it: candidates from the lock, the judging's reveal. */
async function judgedSession(): Promise<ReceiptSource> {
  const candidates: PracticeCandidate[] = await Promise.all(
    ['a', 'b', 'c', 'd', 'e'].map(async (n, i) => ({
      id: `0000000${i}-0000-4000-8000-000000000000`,
      imageUrl: `/api/practice/images/${n}.jpg`,
      imageSha256: await sha256Hex(`picture ${n}`),
      tags: [],
    })),
  )
  const target = candidates[3] ?? candidates[0]
  if (!target) throw new Error('no candidates')
  const ranking = candidates.map((c) => c.id)
  const reveal = {
    targetId: target.id,
    imageSha256: target.imageSha256,
    nonce,
    analyticRank: 1,
    rank: ranking.indexOf(target.id) + 1,
    score: { accuracy: 0.5, reliability: 0.4, figureOfMerit: 0.2 },
  } as PracticeReveal
  return {
    trn: '0042-4242',
    sessionId: '12345678-1234-4234-8234-123456789012',
    startedAt: '2026-02-01T08:00:00.000Z',
    lockedAt: '2026-02-01T08:30:00.000Z',
    judgedAt: '2026-02-01T08:31:00.000Z',
    candidateCount: 5,
    frontloading: 'a structure',
    commitments: {
      commitment: await sha256Hex(`${target.id}|${target.imageSha256}|${nonce}`),
      candidateCommitment: await sha256Hex(
        `${candidates
          .map((c) => c.imageSha256)
          .sort()
          .join(',')}|${nonce}`,
      ),
      source: 'device',
      keptAt: '2026-02-01T08:00:01.000Z',
    },
    writeUp,
    writeUpSha256: await sha256Hex(canonicalJson(writeUp)),
    candidates,
    ranking,
    reveal,
  }
}

describe('the receipt a session page makes', () => {
  it('passes its own checks for an honest session', async () => {
    const receipt = receiptOf(await judgedSession())
    expect(receipt).toMatchObject({
      format: 'crv-training-practice-receipt/1',
      rank: 4,
      commitments: { source: 'device' },
    })
    expect(receipt.candidates).toHaveLength(5)
    expect(await verifyReceipt(receipt)).toMatchObject({ ok: true })
    expect(receiptFileName(receipt)).toBe('crv-practice-receipt-0042-4242.json')
  })

  it('records the hashes of the pictures as served, so a swapped picture fails the receipt too', async () => {
    const source = await judgedSession()
    const served = (source.candidates ?? []).map((c, i) => ({
      id: c.id,
      imageSha256: i === 0 ? 'd'.repeat(64) : c.imageSha256,
    }))
    const receipt = receiptOf({ ...source, served })
    expect(receipt.candidates[0]?.imageSha256).toBe('d'.repeat(64))
    const result = await verifyReceipt(receipt)
    expect(result.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['candidateCommitment'])
  })

  it('is made before the lock too, with no candidates and nothing revealed', async () => {
    const source = await judgedSession()
    const receipt = receiptOf({
      ...source,
      lockedAt: undefined,
      judgedAt: undefined,
      writeUpSha256: undefined,
      candidates: undefined,
      ranking: undefined,
      reveal: undefined,
    })
    expect(receipt).toMatchObject({
      lockedAt: null,
      judgedAt: null,
      writeUpSha256: null,
      candidates: [],
      ranking: null,
      rank: null,
      reveal: null,
      writeUp,
    })
  })
})
