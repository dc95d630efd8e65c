// The reveal's check, done in the browser with Web Crypto on the pictures actually served: the
// target's bytes hash to the revealed imageSha256, SHA-256("targetId|imageSha256|nonce") is the
// commitment kept at the start, the candidates' hashes (sorted, with the nonce) give the
// candidate commitment kept at the start, and the target is one of the candidates shown.
import { candidateCommitmentOf, commitmentOf, sha256Hex } from '@crv/contracts/practice-receipt'

export { sha256Hex }

/** The commitments a reveal is checked against, and where they come from. */
export interface CommitmentsToCheck {
  commitment: string
  /** Null only for a session started before candidate sets were committed. */
  candidateCommitment: string | null
  /** Kept on this device at the start, or (without such a copy) the server's. */
  source: 'device' | 'server'
  keptAt: string | null
}

export type RevealCheckName =
  'image' | 'commitment' | 'candidateCommitment' | 'targetAmongCandidates'

export interface RevealVerification {
  against: CommitmentsToCheck
  /** SHA-256 of the target picture's bytes as served. */
  imageSha256: string
  /** Each candidate with the SHA-256 of its picture's bytes as served, in the order shown. */
  served: { id: string; imageSha256: string }[]
  checks: { name: RevealCheckName; ok: boolean }[]
  ok: boolean
}

export interface RevealToCheck {
  targetId: string
  imageSha256: string
  nonce: string
  imageUrl: string
}

/** The checks, from hashes already computed from the served bytes. */
export async function checkReveal(
  reveal: Omit<RevealToCheck, 'imageUrl'>,
  against: CommitmentsToCheck,
  served: { id: string; imageSha256: string }[],
  imageSha256: string,
): Promise<RevealVerification> {
  const checks: RevealVerification['checks'] = [
    { name: 'image', ok: imageSha256 === reveal.imageSha256 },
    {
      name: 'commitment',
      ok:
        (await commitmentOf(reveal.targetId, reveal.imageSha256, reveal.nonce)) ===
        against.commitment,
    },
  ]
  if (against.candidateCommitment !== null)
    checks.push({
      name: 'candidateCommitment',
      ok:
        served.length > 0 &&
        (await candidateCommitmentOf(
          served.map((c) => c.imageSha256),
          reveal.nonce,
        )) === against.candidateCommitment,
    })
  const target = served.find((c) => c.id === reveal.targetId)
  checks.push({
    name: 'targetAmongCandidates',
    ok: !!target && target.imageSha256 === reveal.imageSha256,
  })
  return { against, imageSha256, served, checks, ok: checks.every((c) => c.ok) }
}

/**
 * Fetches the target's and every candidate's picture with `load`, hashes the bytes, and checks
 * them. A picture that cannot be fetched rejects (the check could not be made; it did not fail).
 */
export async function verifyReveal(
  reveal: RevealToCheck,
  against: CommitmentsToCheck,
  candidates: { id: string; imageUrl: string }[],
  load: (url: string) => Promise<ArrayBuffer>,
): Promise<RevealVerification> {
  const hashes = new Map<string, Promise<string>>()
  const hashOf = (url: string) => {
    let hash = hashes.get(url)
    if (!hash) {
      hash = load(url).then(sha256Hex)
      hashes.set(url, hash)
    }
    return hash
  }
  const [served, imageSha256] = await Promise.all([
    Promise.all(candidates.map(async (c) => ({ id: c.id, imageSha256: await hashOf(c.imageUrl) }))),
    hashOf(reveal.imageUrl),
  ])
  return checkReveal(reveal, against, served, imageSha256)
}
