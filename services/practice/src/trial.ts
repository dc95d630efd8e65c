// A visitor's practice session, saved nowhere: the server seals what it must keep secret (the
// target, the nonce, the candidates) into a token only it can open, and the visitor carries it.
import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { components } from '@crv/contracts'
import { AppError } from '@crv/kit'
import type { Handlers } from '@crv/kit'
import type { Pool } from '@crv/kit/db'
import { activeTargetIds, targetById, targetsByIds } from './repository.ts'
import { scoreWriteUp } from './scoring.ts'
import {
  canonicalJson,
  commitmentOf,
  newNonce,
  newTrn,
  seal,
  sha256Hex,
  shuffled,
  unseal,
} from './sealing.ts'
import { candidateOf, checkRanking, resolvePool } from './sessions.ts'
import type { Vocabulary } from './vocabulary.ts'

type Schemas = components['schemas']

const TRIAL_TTL_MS = 2 * 3600_000
const TRIAL_CANDIDATES = 5

interface TrialState {
  /** A random id, so one trial cannot be replayed as another. */
  i: string
  t: string
  n: string
  trn: string
  s: string
  exp: number
  c?: string[]
}

/** Trials started per address per hour, in memory (the gateway's own limit still applies). */
class HourlyLimiter {
  private readonly counts = new Map<string, { start: number; count: number }>()
  private readonly perHour: number
  constructor(perHour: number) {
    this.perHour = perHour
  }
  take(ip: string, now = Date.now()): boolean {
    const w = this.counts.get(ip)
    if (!w || now - w.start >= 3600_000) {
      if (this.counts.size >= 10_000)
        for (const [k, v] of this.counts) if (now - v.start >= 3600_000) this.counts.delete(k)
      this.counts.set(ip, { start: now, count: 1 })
      return true
    }
    if (w.count >= this.perHour) return false
    w.count += 1
    return true
  }
}

export class TrialService {
  private readonly limiter: HourlyLimiter
  private readonly db: Pool
  private readonly key: Buffer
  private readonly vocabulary: Vocabulary
  constructor(db: Pool, key: Buffer, vocabulary: Vocabulary, trialsPerHour: number) {
    this.db = db
    this.key = key
    this.vocabulary = vocabulary
    this.limiter = new HourlyLimiter(trialsPerHour)
  }

  private open(token: string): TrialState {
    const state = unseal<TrialState>(this.key, token)
    if (typeof state.exp !== 'number' || state.exp < Date.now()) {
      throw new AppError('trial_expired', 409, 'This practice trial has expired. Start a new one.')
    }
    return state
  }

  handlers(): Handlers {
    return {
      startPracticeTrial: async (request: FastifyRequest, reply) => {
        if (!this.limiter.take(request.ip)) {
          reply.header('retry-after', '3600')
          throw new AppError(
            'rate_limited',
            429,
            'You have started many trials this hour. Sign in to keep practising.',
          )
        }
        const poolId = await resolvePool(this.db, undefined)
        const ids = await activeTargetIds(this.db, poolId)
        if (ids.length < TRIAL_CANDIDATES) {
          throw new AppError('pool_too_small', 409, 'No practice targets are available yet.')
        }
        const target = await targetById(this.db, shuffled(ids)[0] as string)
        if (!target) throw new Error('target vanished')
        const nonce = newNonce()
        const startedAt = new Date().toISOString()
        const state: TrialState = {
          i: randomUUID(),
          t: target.id,
          n: nonce,
          trn: newTrn(),
          s: startedAt,
          exp: Date.now() + TRIAL_TTL_MS,
        }
        return reply.code(201).send({
          trn: state.trn,
          commitment: commitmentOf(target.id, target.image_sha256, nonce),
          startedAt,
          candidateCount: TRIAL_CANDIDATES,
          frontloading: target.frontloading,
          token: seal(this.key, state),
        } satisfies Schemas['PracticeTrialStarted'])
      },

      lockPracticeTrial: async (request) => {
        const { token } = request.body as Schemas['PracticeTrialToken']
        const state = this.open(token)
        const target = await targetById(this.db, state.t)
        if (!target)
          throw new AppError('trial_expired', 409, 'This practice trial is no longer available.')
        if (!state.c) {
          const decoys = shuffled(
            (await activeTargetIds(this.db, target.pool_id)).filter((t) => t !== target.id),
          ).slice(0, TRIAL_CANDIDATES - 1)
          state.c = shuffled([target.id, ...decoys])
        }
        const targets = await targetsByIds(this.db, state.c)
        return {
          token: seal(this.key, state),
          candidates: state.c.flatMap((id) => {
            const t = targets.get(id)
            return t ? [candidateOf(t)] : []
          }),
        } satisfies Schemas['PracticeTrialLocked']
      },

      judgePracticeTrial: async (request) => {
        const body = request.body as Schemas['PracticeTrialJudgeRequest']
        const state = this.open(body.token)
        if (!state.c)
          throw new AppError('session_not_locked', 409, 'Lock the write-up before judging.')
        checkRanking(body.ranking, state.c)
        const target = await targetById(this.db, state.t)
        if (!target)
          throw new AppError('trial_expired', 409, 'This practice trial is no longer available.')
        const writeUp = body.writeUp ?? {}
        const score = scoreWriteUp(writeUp, target.tags, this.vocabulary)
        return {
          targetId: target.id,
          imageSha256: target.image_sha256,
          nonce: state.n,
          commitment: commitmentOf(target.id, target.image_sha256, state.n),
          rank: body.ranking.indexOf(target.id) + 1,
          candidates: TRIAL_CANDIDATES,
          imageUrl: `/api/practice/images/${target.image_key}`,
          title: target.title,
          feedback: target.feedback,
          tags: target.tags,
          licence: target.licence,
          source: target.source,
          attribution: target.attribution,
          writeUpSha256: sha256Hex(canonicalJson(writeUp)),
          score,
        } satisfies Schemas['PracticeReveal']
      },
    }
  }
}
