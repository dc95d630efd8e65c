// A practice session's receipt: what the viewer can keep and check later without the server.
// Pure functions on `globalThis.crypto.subtle`, so the browser (the reveal's check, the
// download) and Node (`npm run verify-receipt`) compute the same hashes.

export const RECEIPT_FORMAT = 'crv-training-practice-receipt/1'

export interface PracticeReceipt {
  format: typeof RECEIPT_FORMAT
  trn: string
  /** Null for a visitor's trial (nothing is stored on the server). */
  sessionId: string | null
  startedAt: string
  lockedAt: string | null
  judgedAt: string | null
  candidateCount: number
  frontloading: string | null
  commitments: {
    commitment: string
    /** Null only for a session started before candidate sets were committed at the start. */
    candidateCommitment: string | null
    /** Where the commitments came from: kept on the device at the start, or the server's copy. */
    source: 'device' | 'server'
    keptAt: string | null
  }
  writeUp: unknown
  writeUpSha256: string | null
  /** In the order shown at the lock; empty before the lock. */
  candidates: { id: string; imageSha256: string }[]
  ranking: string[] | null
  rank: number | null
  reveal: {
    targetId: string
    imageSha256: string
    nonce: string
    analyticRank: number
    score: { figureOfMerit: number; accuracy: number; reliability: number }
  } | null
}

export type ReceiptCheckName =
  | 'revealed'
  | 'commitment'
  | 'candidateCommitment'
  | 'targetAmongCandidates'
  | 'writeUpSha256'
  | 'rank'

export interface ReceiptCheck {
  name: ReceiptCheckName
  ok: boolean
  detail: string
}

export interface ReceiptVerification {
  ok: boolean
  checks: ReceiptCheck[]
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')

/** SHA-256 as lowercase hex: of a string's UTF-8, or of bytes. */
export async function sha256Hex(data: string | ArrayBuffer | Uint8Array): Promise<string> {
  // A Uint8Array is copied: it may view a SharedArrayBuffer, which digest() does not take.
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data)
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytes))
}

/**
 * JSON with object keys sorted at every level and undefined members dropped: the server hashes
 * the locked write-up this way (services/practice/src/sessions/sealing.ts), so equal write-ups hash equally.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The target commitment: SHA-256 of `targetId|imageSha256|nonce`. */
export const commitmentOf = (targetId: string, imageSha256: string, nonce: string) =>
  sha256Hex(`${targetId}|${imageSha256}|${nonce}`)

/** The candidate commitment: SHA-256 of the images' hashes, lowercase, sorted, joined by ",", then `|nonce`. */
export const candidateCommitmentOf = (imageSha256s: readonly string[], nonce: string) =>
  sha256Hex(
    `${imageSha256s
      .map((h) => h.toLowerCase())
      .sort()
      .join(',')}|${nonce}`,
  )

/** The SHA-256 of a write-up as the server records it at the lock. */
export const writeUpSha256Of = (writeUp: unknown) => sha256Hex(canonicalJson(writeUp))

const short = (h: string) => `${h.slice(0, 12)}…`

/**
 * Every check a receipt allows, offline: the commitments against the revealed nonce, the target
 * among the candidates shown at the lock, the write-up's hash, and the rank against the ranking.
 * A receipt without a reveal (a session not judged) cannot show that the target was fixed: its
 * 'revealed' check fails.
 */
export async function verifyReceipt(receipt: PracticeReceipt): Promise<ReceiptVerification> {
  const checks: ReceiptCheck[] = []
  const { reveal, commitments, candidates } = receipt
  if (!reveal) {
    checks.push({
      name: 'revealed',
      ok: false,
      detail: 'no reveal: the commitments can be checked only once the target is revealed',
    })
  } else {
    const commitment = await commitmentOf(reveal.targetId, reveal.imageSha256, reveal.nonce)
    checks.push({
      name: 'commitment',
      ok: commitment === commitments.commitment,
      detail:
        commitment === commitments.commitment
          ? `SHA-256(targetId|imageSha256|nonce) = ${commitment}`
          : `SHA-256(targetId|imageSha256|nonce) = ${commitment}, but the commitment is ${commitments.commitment}`,
    })
    if (commitments.candidateCommitment === null) {
      checks.push({
        name: 'candidateCommitment',
        ok: false,
        detail: 'no candidate commitment: the session started before candidate sets were committed',
      })
    } else {
      const computed = await candidateCommitmentOf(
        candidates.map((c) => c.imageSha256),
        reveal.nonce,
      )
      const ok = candidates.length > 0 && computed === commitments.candidateCommitment
      checks.push({
        name: 'candidateCommitment',
        ok,
        detail: ok
          ? `SHA-256(sorted candidate hashes|nonce) = ${computed}`
          : candidates.length === 0
            ? 'no candidates listed'
            : `SHA-256(sorted candidate hashes|nonce) = ${computed}, but the candidate commitment is ${commitments.candidateCommitment}`,
      })
    }
    const target = candidates.find((c) => c.id === reveal.targetId)
    const among = !!target && target.imageSha256.toLowerCase() === reveal.imageSha256
    checks.push({
      name: 'targetAmongCandidates',
      ok: among,
      detail: !target
        ? `the target ${reveal.targetId} is not among the ${candidates.length} candidates`
        : among
          ? `the target is candidate ${candidates.indexOf(target) + 1} of ${candidates.length}, with the same image`
          : `the target's candidate image ${short(target.imageSha256)} is not the revealed image ${short(reveal.imageSha256)}`,
    })
  }
  if (receipt.writeUpSha256 !== null) {
    const computed = receipt.writeUp === null ? null : await writeUpSha256Of(receipt.writeUp)
    checks.push({
      name: 'writeUpSha256',
      ok: computed === receipt.writeUpSha256,
      detail:
        computed === null
          ? 'the receipt holds a write-up hash but no write-up'
          : computed === receipt.writeUpSha256
            ? `SHA-256(canonical JSON of the write-up) = ${computed}`
            : `SHA-256(canonical JSON of the write-up) = ${computed}, but the locked hash is ${receipt.writeUpSha256}`,
    })
  }
  if (receipt.rank !== null || receipt.ranking !== null) {
    const ranking = receipt.ranking ?? []
    const ids = candidates.map((c) => c.id)
    const complete =
      ranking.length === ids.length &&
      new Set(ranking).size === ranking.length &&
      ranking.every((id) => ids.includes(id))
    const place = reveal ? ranking.indexOf(reveal.targetId) + 1 : 0
    const ok = complete && place > 0 && place === receipt.rank
    checks.push({
      name: 'rank',
      ok,
      detail: !complete
        ? 'the ranking does not list every candidate once'
        : place === 0
          ? 'the ranking does not contain the target'
          : ok
            ? `the target is ${place} in the ranking`
            : `the target is ${place} in the ranking, but the rank is ${receipt.rank}`,
    })
  }
  return { ok: checks.every((c) => c.ok), checks }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'
const isNullableString = (v: unknown): v is string | null => v === null || isString(v)
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** A receipt read from JSON, or an error naming the first field that does not fit the format. */
export function parseReceipt(value: unknown): PracticeReceipt {
  const fail = (field: string): never => {
    throw new Error(`not a practice receipt (${RECEIPT_FORMAT}): ${field}`)
  }
  if (!isRecord(value)) return fail('not an object')
  if (value.format !== RECEIPT_FORMAT) fail('format')
  for (const field of ['trn', 'startedAt'] as const) if (!isString(value[field])) fail(field)
  for (const field of ['sessionId', 'lockedAt', 'judgedAt', 'frontloading', 'writeUpSha256'])
    if (!isNullableString(value[field])) fail(field)
  if (!isNumber(value.candidateCount)) fail('candidateCount')
  if (value.rank !== null && !isNumber(value.rank)) fail('rank')
  if (!('writeUp' in value)) fail('writeUp')
  const c = value.commitments
  if (
    !isRecord(c) ||
    !isString(c.commitment) ||
    !isNullableString(c.candidateCommitment) ||
    (c.source !== 'device' && c.source !== 'server') ||
    !isNullableString(c.keptAt)
  )
    fail('commitments')
  if (
    !Array.isArray(value.candidates) ||
    !value.candidates.every((x) => isRecord(x) && isString(x.id) && isString(x.imageSha256))
  )
    fail('candidates')
  if (
    value.ranking !== null &&
    !(Array.isArray(value.ranking) && value.ranking.every((x) => isString(x)))
  )
    fail('ranking')
  const r = value.reveal
  if (r !== null) {
    if (
      !isRecord(r) ||
      !isString(r.targetId) ||
      !isString(r.imageSha256) ||
      !isString(r.nonce) ||
      !isNumber(r.analyticRank) ||
      !isRecord(r.score) ||
      !isNumber(r.score.figureOfMerit) ||
      !isNumber(r.score.accuracy) ||
      !isNumber(r.score.reliability)
    )
      fail('reveal')
  }
  return value as unknown as PracticeReceipt
}
