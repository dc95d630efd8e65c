// A practice session's receipt (packages/contracts/src/practice-receipt.ts) and its offline
// check, `npm run verify-receipt`: a receipt built as the session page builds it passes, and a
// changed nonce, a swapped candidate hash or an edited write-up fails.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RECEIPT_FORMAT,
  canonicalJson,
  parseReceipt,
  verifyReceipt,
} from '@crv/contracts/practice-receipt'
import type { PracticeReceipt } from '@crv/contracts/practice-receipt'
import { canonicalJson as serverCanonicalJson } from '../services/practice/src/sessions/sealing.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const run = promisify(execFile)
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const writeUps: unknown[] = [
  {},
  {
    language: 'ja',
    stage1: {
      ideograms: [{ a: '上昇して平ら', b: '土地', drawing: { strokes: [[[0.1, 0.2, 0, 0.5]]] } }],
    },
    stage2: { textures: ['rough', { word: 'froid', conceptId: 'cold' }], colours: [] },
    summary: 'Ein hoher Turm am Wasser — “nah”, 🌊\n\ttab\u2028sep',
    aestheticImpact: undefined,
  },
  {
    summary: 'zeta',
    breaks: [{ kind: 'AOL', text: 'lighthouse?', at: '2026-01-01T00:00:00.000Z' }],
    stage4: { rows: [{ S: 'cold', AOL: 'harbour', D: 'tall, narrow' }] },
    aestheticImpact: 'vast ½ \\ "quoted" \u0000',
    Z: 1,
    a: [3, 1.5, -0, 1e21, null, true],
  },
]

type Revealed = PracticeReceipt & { reveal: NonNullable<PracticeReceipt['reveal']> }

/** A receipt as the session page makes it after an honest reveal of candidate `target`. */
function receipt(target = 2): Revealed {
  const nonce = 'ab'.repeat(32)
  const candidates = ['one', 'two', 'three', 'four', 'five'].map((name, i) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    imageSha256: sha256(`picture ${name}`),
  }))
  const chosen = candidates[target]
  if (!chosen) throw new Error(`no candidate ${target}`)
  const writeUp = writeUps[1]
  const ranking = [...candidates].reverse().map((c) => c.id)
  return {
    format: RECEIPT_FORMAT,
    trn: '1234-5678',
    sessionId: '11111111-2222-4333-8444-555555555555',
    startedAt: '2026-03-01T10:00:00.000Z',
    lockedAt: '2026-03-01T10:20:00.000Z',
    judgedAt: '2026-03-01T10:22:00.000Z',
    candidateCount: 5,
    frontloading: null,
    commitments: {
      commitment: sha256(`${chosen.id}|${chosen.imageSha256}|${nonce}`),
      candidateCommitment: sha256(
        `${candidates
          .map((c) => c.imageSha256)
          .sort()
          .join(',')}|${nonce}`,
      ),
      source: 'device',
      keptAt: '2026-03-01T10:00:01.000Z',
    },
    writeUp,
    writeUpSha256: sha256(serverCanonicalJson(writeUp)),
    candidates,
    ranking,
    rank: ranking.indexOf(chosen.id) + 1,
    reveal: {
      targetId: chosen.id,
      imageSha256: chosen.imageSha256,
      nonce,
      analyticRank: 2,
      score: { figureOfMerit: 0.25, accuracy: 0.5, reliability: 0.5 },
    },
  }
}

const failed = async (r: PracticeReceipt) =>
  (await verifyReceipt(r)).checks.filter((c) => !c.ok).map((c) => c.name)

describe('the practice receipt', () => {
  it('writes canonical JSON byte for byte as the server does, unicode included', () => {
    for (const writeUp of writeUps)
      expect(canonicalJson(writeUp)).toBe(serverCanonicalJson(writeUp))
    expect(canonicalJson({ b: 1, a: { d: undefined, c: 'é' } })).toBe('{"a":{"c":"é"},"b":1}')
  })

  it('passes every check of an honest receipt', async () => {
    const result = await verifyReceipt(receipt())
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['commitment', true],
      ['candidateCommitment', true],
      ['targetAmongCandidates', true],
      ['writeUpSha256', true],
      ['rank', true],
    ])
    expect(result.ok).toBe(true)
  })

  it('fails the commitments when the nonce was changed', async () => {
    const r = receipt()
    expect(await failed({ ...r, reveal: { ...r.reveal, nonce: 'cd'.repeat(32) } })).toEqual([
      'commitment',
      'candidateCommitment',
    ])
  })

  it('fails the target commitment and the target check when another target is revealed', async () => {
    const r = receipt()
    const revealed = { ...r.reveal, targetId: r.candidates[0]?.id ?? '' }
    // Another candidate's id with the target's image: not that candidate's picture.
    expect(await failed({ ...r, reveal: revealed })).toEqual([
      'commitment',
      'targetAmongCandidates',
      'rank',
    ])
    expect(
      await failed({
        ...r,
        reveal: { ...revealed, targetId: '99999999-0000-4000-8000-000000000000' },
      }),
    ).toEqual(['commitment', 'targetAmongCandidates', 'rank'])
  })

  it('fails the candidate commitment when a candidate was swapped', async () => {
    const r = receipt()
    const candidates = r.candidates.map((c, i) =>
      i === 4 ? { ...c, imageSha256: sha256('x') } : c,
    )
    expect(await failed({ ...r, candidates })).toEqual(['candidateCommitment'])
  })

  it("fails the write-up's hash when the write-up was edited after the lock", async () => {
    const r = receipt()
    expect(
      await failed({ ...r, writeUp: { ...(r.writeUp as object), summary: 'changed' } }),
    ).toEqual(['writeUpSha256'])
  })

  it('fails a rank that is not the place of the target in the ranking', async () => {
    expect(await failed({ ...receipt(), rank: 1 })).toEqual(['rank'])
  })

  it('cannot vouch for a session that was never revealed', async () => {
    const r: PracticeReceipt = {
      ...receipt(),
      judgedAt: null,
      ranking: null,
      rank: null,
      reveal: null,
    }
    const result = await verifyReceipt(r)
    expect(result.ok).toBe(false)
    expect(result.checks.map((c) => [c.name, c.ok])).toEqual([
      ['revealed', false],
      ['writeUpSha256', true],
    ])
  })

  it('reads a receipt back from its JSON and refuses what is not one', () => {
    const r = receipt()
    expect(parseReceipt(JSON.parse(JSON.stringify(r)))).toEqual(r)
    expect(() => parseReceipt({ ...r, format: 'other/1' })).toThrow(/format/)
    expect(() => parseReceipt({ ...r, candidates: [{ id: 1 }] })).toThrow(/candidates/)
    expect(() => parseReceipt([])).toThrow(/not an object/)
  })
})

describe('npm run verify-receipt', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crv-receipt-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  /** Runs the script on `value` written to a file; its exit code and output. */
  async function verify(value: unknown, name: string) {
    const file = join(dir, `${name}.json`)
    await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2))
    try {
      const { stdout } = await run(process.execPath, ['scripts/verify-receipt.ts', file], {
        cwd: root,
      })
      return { code: 0, output: stdout }
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string }
      return { code: e.code, output: e.stdout + e.stderr }
    }
  }

  it('prints every check and exits 0 for an honest receipt', async () => {
    const { code, output } = await verify(receipt(), 'good')
    expect(code).toBe(0)
    expect(output).toMatch(/PASS {2}commitment: /)
    expect(output).toMatch(/PASS {2}candidateCommitment: /)
    expect(output).toMatch(/PASS {2}writeUpSha256: /)
    expect(output).toContain('All checks passed.')
  })

  it('exits 1 and names the failed check for a changed nonce, a swapped candidate or an edited write-up', async () => {
    const r = receipt()
    const nonce = await verify({ ...r, reveal: { ...r.reveal, nonce: '00'.repeat(32) } }, 'nonce')
    expect(nonce.code).toBe(1)
    expect(nonce.output).toMatch(/FAIL {2}commitment: /)
    expect(nonce.output).toContain('Verification FAILED.')

    const swapped = r.candidates.map((c, i) => (i === 0 ? { ...c, imageSha256: sha256('y') } : c))
    const candidate = await verify({ ...r, candidates: swapped }, 'candidate')
    expect(candidate.code).toBe(1)
    expect(candidate.output).toMatch(/FAIL {2}candidateCommitment: /)
    expect(candidate.output).toMatch(/PASS {2}commitment: /)

    const edited = await verify({ ...r, writeUp: { summary: 'a bridge' } }, 'write-up')
    expect(edited.code).toBe(1)
    expect(edited.output).toMatch(/FAIL {2}writeUpSha256: /)
  })

  it('exits 1 on a file that is no receipt', async () => {
    const { code, output } = await verify('{"format":"something else"}', 'other')
    expect(code).toBe(1)
    expect(output).toMatch(/not a practice receipt/)
  })
})
