import { describe, expect, it } from 'vitest'
import { moveItem } from './ranking.ts'
import { sha256Hex, verifyReveal } from './verify.ts'
import type { CommitmentsToCheck } from './verify.ts'

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer

/** Five candidates served as `picture N`, the third the target, committed with `nonce`. */
async function sealedSession() {
  const nonce = 'n'.repeat(64)
  const served = await Promise.all(
    [1, 2, 3, 4, 5].map(async (n) => {
      const picture = bytes(`picture ${n}`)
      return {
        id: `t-${n}`,
        imageUrl: `/api/practice/images/${n}.jpg`,
        picture,
        hash: await sha256Hex(picture),
      }
    }),
  )
  const candidates = served.map(({ id, imageUrl }) => ({ id, imageUrl }))
  const pictures = new Map(served.map((c) => [c.imageUrl, c.picture]))
  const [first, , target] = served
  if (!first || !target) throw new Error('five candidates')
  const kept: CommitmentsToCheck = {
    commitment: await sha256Hex(`t-3|${target.hash}|${nonce}`),
    candidateCommitment: await sha256Hex(
      `${served
        .map((c) => c.hash)
        .sort()
        .join(',')}|${nonce}`,
    ),
    source: 'device',
    keptAt: '2026-01-01T00:00:00.000Z',
  }
  const reveal = { targetId: 't-3', imageSha256: target.hash, nonce, imageUrl: target.imageUrl }
  const load = async (url: string) => pictures.get(url) ?? bytes('not found')
  return { candidates, first, pictures, kept, reveal, load }
}

const failedChecks = (result: { checks: { name: string; ok: boolean }[] }) =>
  result.checks.filter((c) => !c.ok).map((c) => c.name)

describe('the reveal check', () => {
  it('hashes as the server does (SHA-256, lowercase hex)', async () => {
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('passes every check of an honest reveal, against the copy kept at the start', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const result = await verifyReveal(reveal, kept, candidates, load)
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['image', true],
      ['commitment', true],
      ['candidateCommitment', true],
      ['targetAmongCandidates', true],
    ])
    expect(result.ok).toBe(true)
    expect(result.served.map((c) => c.id)).toEqual(['t-1', 't-2', 't-3', 't-4', 't-5'])
  })

  it('fails the commitments when the nonce was changed', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const result = await verifyReveal({ ...reveal, nonce: 'm'.repeat(64) }, kept, candidates, load)
    expect(failedChecks(result)).toEqual(['commitment', 'candidateCommitment'])
    expect(result.ok).toBe(false)
  })

  it('fails when another target is revealed than the one committed', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const other = await verifyReveal({ ...reveal, targetId: 't-1' }, kept, candidates, load)
    expect(failedChecks(other)).toEqual(['commitment', 'targetAmongCandidates'])
    const outside = await verifyReveal({ ...reveal, targetId: 'x-9' }, kept, candidates, load)
    expect(failedChecks(outside)).toEqual(['commitment', 'targetAmongCandidates'])
  })

  it('fails when a picture served is not the one committed', async () => {
    const { candidates, first, pictures, kept, reveal, load } = await sealedSession()
    const swapped = async (url: string) =>
      url === first.imageUrl ? bytes('a different picture') : load(url)
    expect(failedChecks(await verifyReveal(reveal, kept, candidates, swapped))).toEqual([
      'candidateCommitment',
    ])
    const wrongTarget = async (url: string) =>
      url === reveal.imageUrl ? bytes('not the target') : (pictures.get(url) ?? bytes(''))
    expect(failedChecks(await verifyReveal(reveal, kept, candidates, wrongTarget))).toEqual([
      'image',
      'candidateCommitment',
      'targetAmongCandidates',
    ])
    const claimed = await verifyReveal(
      { ...reveal, imageSha256: 'f'.repeat(64) },
      kept,
      candidates,
      load,
    )
    expect(failedChecks(claimed)).toEqual(['image', 'commitment', 'targetAmongCandidates'])
  })

  it('fails against a kept copy the server later changed its own copy away from', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const result = await verifyReveal(
      reveal,
      { ...kept, commitment: 'e'.repeat(64) },
      candidates,
      load,
    )
    expect(failedChecks(result)).toEqual(['commitment'])
  })

  it('fetches each picture once, the target among them', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const asked: string[] = []
    await verifyReveal(reveal, kept, candidates, (url) => {
      asked.push(url)
      return load(url)
    })
    expect(asked.sort()).toEqual(candidates.map((c) => c.imageUrl).sort())
  })

  it('leaves out the candidate check for a session started before sets were committed', async () => {
    const { candidates, kept, reveal, load } = await sealedSession()
    const result = await verifyReveal(
      reveal,
      { ...kept, candidateCommitment: null },
      candidates,
      load,
    )
    expect(result.checks.map((c) => c.name)).toEqual([
      'image',
      'commitment',
      'targetAmongCandidates',
    ])
    expect(result.ok).toBe(true)
  })
})

describe('ranking', () => {
  it('moves a candidate up and down, never off the list', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    expect(moveItem(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c'])
  })
})
