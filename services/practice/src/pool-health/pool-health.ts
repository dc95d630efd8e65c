// A pool's health (issue [24] item 5): how large it is, whether one gestalt class crowds the
// others, how well its taggers agree, and how many fresh sessions its most active viewers have
// left before their sets come from pictures they were shown before.
import { createHmac } from 'node:crypto'
import type { components } from '@crv/contracts'
import { notFound } from '@crv/kit'
import { REST_DAYS } from '../sessions/candidate-sets.ts'
import type { Executor } from '../near-duplicates/repository.ts'
import { mostActiveViewers, poolSize, tagCounts } from './repository.ts'
import { poolHealthView } from './views.ts'

type Schemas = components['schemas']
export type GestaltClass = Schemas['PracticeGestaltClass']

/** A class above this share of the pool is flagged: sets would too often be of that class. */
export const CLASS_SHARE_LIMIT = 0.3
/** The viewers whose fresh sessions are counted, and the window their sessions are counted in. */
export const ACTIVE_VIEWERS = 5
export const ACTIVE_WINDOW_DAYS = 90

// Keyed by the contract's enum, so the compiler says when the two differ.
const CLASSES: Record<GestaltClass, true> = {
  biological: true,
  energy: true,
  land: true,
  'man-made': true,
  motion: true,
  natural: true,
  space: true,
  water: true,
}
export const GESTALT_CLASSES = Object.keys(CLASSES) as GestaltClass[]

/** The tag that puts a target in a class: its concept id in the vocabulary. */
export const classTag = (gestalt: GestaltClass) => `${gestalt}-gestalt`

export type ClassShare = Schemas['PracticePoolHealth']['classes'][number]

/** Each class's share of the active targets, largest first (then by name). */
export function classShares(counts: ReadonlyMap<string, number>, active: number): ClassShare[] {
  return GESTALT_CLASSES.map((gestalt) => {
    const targets = counts.get(classTag(gestalt)) ?? 0
    const share = active > 0 ? targets / active : 0
    return { gestalt, targets, share, aboveLimit: share > CLASS_SHARE_LIMIT }
  }).sort((a, b) => b.targets - a.targets || a.gestalt.localeCompare(b.gestalt))
}

/**
 * Sets of `size` a viewer can still be drawn before their sets come from pictures shown within
 * the rest period: first from pictures never shown to them, then from those and the rested
 * ones (the draw's classes, in its order: src/candidate-sets.ts).
 */
export function setsLeft(
  unseen: number,
  rested: number,
  size: number,
): { freshSessions: number; restedSessions: number } {
  const freshSessions = Math.floor(unseen / size)
  return { freshSessions, restedSessions: Math.floor((unseen + rested) / size) - freshSessions }
}

/** The key viewers' pseudonyms are made with, derived from the service's sealing key. */
export const viewerKeyOf = (sealingKey: Buffer): Buffer =>
  createHmac('sha256', sealingKey).update('practice pool health: viewer pseudonyms').digest()

/** A viewer as the health report names them: 8 hex digits, the same on every call. */
export const viewerPseudonym = (viewerKey: Buffer, userId: string): string =>
  createHmac('sha256', viewerKey).update(userId).digest('hex').slice(0, 8)

export interface PoolHealthDeps {
  db: Executor
  viewerKey: Buffer
}

export async function poolHealth(
  { db, viewerKey }: PoolHealthDeps,
  poolId: string,
): Promise<Schemas['PracticePoolHealth']> {
  const tags = GESTALT_CLASSES.map(classTag)
  const [size, counts, viewers] = await Promise.all([
    poolSize(db, poolId, tags),
    tagCounts(db, poolId, tags),
    mostActiveViewers(db, poolId, {
      windowDays: ACTIVE_WINDOW_DAYS,
      restDays: REST_DAYS,
      limit: ACTIVE_VIEWERS,
    }),
  ])
  if (!size) throw notFound('Target pool not found')
  return poolHealthView({
    poolId,
    activeTargets: size.activeTargets,
    classShareLimit: CLASS_SHARE_LIMIT,
    unclassified: size.unclassified,
    classes: classShares(counts, size.activeTargets),
    // Targets from contributions keep the κ of their two taggers (contributions/agreement.ts).
    tagAgreement: { targets: size.secondTagged, meanKappa: size.meanKappa },
    viewers: viewers.map((v) => {
      // Their own contributions are never drawn into their sets: not fresh pictures for them.
      const unseen = Math.max(0, size.activeTargets - v.shown - v.own)
      return {
        viewer: viewerPseudonym(viewerKey, v.userId),
        sessions: v.sessions,
        candidateCount: v.candidateCount,
        unseen,
        rested: v.rested,
        ...setsLeft(unseen, v.rested, v.candidateCount),
      }
    }),
  })
}
