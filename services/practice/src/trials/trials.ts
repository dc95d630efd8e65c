// A visitor's practice session, saved nowhere: the server seals what it must keep secret (the
// target, the nonce, the candidates) into a token only it can open, and the visitor carries it.
import { randomUUID } from 'node:crypto'
import type { components } from '@crv/contracts'
import { AppError, clientKey, FixedWindowLimiter } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { CandidateDraw } from '../sessions/candidate-sets.ts'
import { candidateCommitmentOf } from '../sessions/candidate-sets.ts'
import { targetsByIds } from '../pools/repository.ts'
import type { TargetRow } from '../pools/repository.ts'
import { scoreWriteUp } from '../sessions/scoring.ts'
import type { WriteUp } from '../sessions/scoring.ts'
import {
  canonicalJson,
  commitmentOf,
  newTrn,
  seal,
  sha256Hex,
  unseal,
} from '../sessions/sealing.ts'
import { checkRanking, drawnSet, judgeAnalytically, resolvePool } from '../sessions/sessions.ts'
import { candidateOf } from '../sessions/views.ts'
import type { Vocabulary } from '../vocabulary.ts'

type Schemas = components['schemas']

const TRIAL_TTL_MS = 2 * 3600_000
const TRIAL_CANDIDATES = 5

interface TrialState {
  /** A random id, so one trial cannot be replayed as another. */
  i: string
  /** The target, the nonce, the reference number, the start time and the expiry. */
  t: string
  n: string
  trn: string
  s: string
  exp: number
  /** The candidate set, drawn at the start, in the order it is shown. */
  c: string[]
  /** The locked write-up's hash, once locked. */
  w?: string
}

const trialGone = () =>
  new AppError('trial_expired', 409, 'This practice trial is no longer available.')

export class TrialService {
  /** Trials started per client (an IPv4 address or an IPv6 /64) per hour, in memory (the
   * gateway's own limit still applies). */
  private readonly limiter: FixedWindowLimiter
  private readonly db: Database
  private readonly key: Buffer
  private readonly vocabulary: Vocabulary
  private readonly draw: CandidateDraw | undefined
  constructor(
    db: Database,
    key: Buffer,
    vocabulary: Vocabulary,
    trialsPerHour: number,
    draw?: CandidateDraw,
  ) {
    this.db = db
    this.key = key
    this.vocabulary = vocabulary
    this.limiter = new FixedWindowLimiter({ limit: trialsPerHour, windowMs: 3_600_000 })
    this.draw = draw
  }

  private open(token: string): TrialState {
    const state = unseal<TrialState>(this.key, token)
    if (typeof state.exp !== 'number' || state.exp < Date.now()) {
      throw new AppError('trial_expired', 409, 'This practice trial has expired. Start a new one.')
    }
    if (!Array.isArray(state.c)) throw trialGone()
    return state
  }

  /** The trial's candidates, all still there, in the order shown. */
  private async candidates(state: TrialState): Promise<TargetRow[]> {
    const targets = await targetsByIds(this.db, state.c)
    const list = state.c.map((id) => targets.get(id))
    if (list.some((t) => !t)) throw trialGone()
    return list as TargetRow[]
  }

  /** Whether the client may start another trial this hour (counts this one if so). */
  admit(ip: string): boolean {
    return this.limiter.take(clientKey(ip)) === 0
  }

  /** A new trial: the set drawn, the target inside it committed, the secrets sealed. */
  async start(): Promise<Schemas['PracticeTrialStarted']> {
    const poolId = await resolvePool(this.db, undefined)
    const set = await drawnSet(this.db, poolId, null, TRIAL_CANDIDATES, this.draw)
    const startedAt = new Date().toISOString()
    const state: TrialState = {
      i: randomUUID(),
      t: set.targetId,
      n: set.nonce,
      trn: newTrn(),
      s: startedAt,
      exp: Date.now() + TRIAL_TTL_MS,
      c: set.candidates,
    }
    return {
      trn: state.trn,
      commitment: set.commitment,
      candidateCommitment: set.candidateCommitment,
      startedAt,
      candidateCount: TRIAL_CANDIDATES,
      frontloading: set.frontloading,
      token: seal(this.key, state),
    }
  }

  // Every lock of one trial shows the set sealed at the start, bound to one write-up.
  async lock(body: Schemas['PracticeTrialLockRequest']): Promise<Schemas['PracticeTrialLocked']> {
    const state = this.open(body.token)
    const hash = sha256Hex(canonicalJson(body.writeUp))
    if (state.w && state.w !== hash) {
      throw new AppError('trial_locked', 409, 'This trial is already locked with another write-up.')
    }
    state.w = hash
    return {
      token: seal(this.key, state),
      writeUpSha256: hash,
      candidates: (await this.candidates(state)).map(candidateOf),
    }
  }

  async judge(body: Schemas['PracticeTrialJudgeRequest']): Promise<Schemas['PracticeReveal']> {
    const state = this.open(body.token)
    if (!state.w) {
      throw new AppError('session_not_locked', 409, 'Lock the write-up before judging.')
    }
    const writeUp: WriteUp = body.writeUp
    if (sha256Hex(canonicalJson(writeUp)) !== state.w) {
      throw new AppError(
        'write_up_changed',
        409,
        'This is not the write-up that was locked: judge the write-up as it was locked.',
      )
    }
    checkRanking(body.ranking, state.c)
    const candidates = await this.candidates(state)
    const target = candidates.find((c) => c.id === state.t)
    if (!target) throw trialGone()
    const score = scoreWriteUp(writeUp, target.tags, this.vocabulary)
    const analytic = judgeAnalytically(writeUp, candidates, target.id, this.vocabulary)
    return {
      targetId: target.id,
      imageSha256: target.image_sha256,
      nonce: state.n,
      commitment: commitmentOf(target.id, target.image_sha256, state.n),
      candidateCommitment: candidateCommitmentOf(
        candidates.map((c) => c.image_sha256),
        state.n,
      ),
      candidateImageSha256: candidates.map((c) => c.image_sha256).sort(),
      rank: body.ranking.indexOf(target.id) + 1,
      analyticRank: analytic.rank,
      chanceFigureOfMerit: analytic.chanceFigureOfMerit,
      candidates: TRIAL_CANDIDATES,
      imageUrl: `/api/practice/images/${target.image_key}`,
      title: target.title,
      feedback: target.feedback,
      tags: target.tags,
      licence: target.licence,
      source: target.source,
      attribution: target.attribution,
      writeUpSha256: state.w,
      score,
    }
  }
}

/** Refused: too many trials from one client this hour (answered with a retry-after of an hour). */
export const TRIAL_RETRY_AFTER_SECONDS = 3600
export const trialsRateLimited = () =>
  new AppError(
    'rate_limited',
    429,
    'You have started many trials this hour. Sign in to keep practising.',
  )
