// What a draw starts from: a pool's active targets, each with when it was last shown to the
// viewer. A start meets a pool of thousands of targets and a viewer with a thousand past sessions
// (issue [24]); reading both on every start held the embedded database's one thread for 11-16 ms
// and saturated it at 50 starts a second. So both are kept here between starts, and each start
// asks the database only for two versions (one statement, two index lookups):
//   - the pool's targets' version, bumped by every statement that writes one of its targets
//     (migration 0007); the pool's list is read again when it moved;
//   - the viewer's showings' version, their latest showing: showings only move forward, to the
//     moment of a lock, and are deleted only all at once. A lock in this process brings the kept
//     showings forward itself; anything else (another replica's lock, a deletion) reads them again.
// A contributor's own targets are left out of their sets here (issue [24]), from the whole set
// and not only as its target, so every candidate stays equally likely to be the target.
import type { Pool } from 'pg'
import type { DrawableTarget } from './candidate-sets.ts'
import { activeTargetsOf, drawVersionsOf, lastShowingsOf, targetsVersion } from './repository.ts'
import type { PoolTarget } from './repository.ts'

interface PoolList {
  version: string
  targets: PoolTarget[]
  /** Each target's place in `targets`. */
  places: Map<string, number>
}

/** A viewer's last showings of one pool's targets, in the order of its list (NaN: never). */
interface Showings {
  list: PoolList
  version: string | null
  at: Float64Array
}

/** Pools kept per database: a service has a handful; this bounds a misuse. */
const MAX_POOLS = 64
/** Viewers whose showings are kept (8 bytes a target each: 10 MB at 5,000 targets). */
const MAX_VIEWERS = 256

interface Kept {
  pools: Map<string, PoolList>
  viewers: Map<string, Showings>
}
const keptFor = new WeakMap<Pool, Kept>()

function kept(db: Pool): Kept {
  let k = keptFor.get(db)
  if (!k) {
    k = { pools: new Map(), viewers: new Map() }
    keptFor.set(db, k)
  }
  return k
}

/** Keeps a value as the most recently used of a bounded map. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.delete(key)
  if (map.size >= max) map.delete(map.keys().next().value as K)
  map.set(key, value)
  return value
}

const viewerKey = (userId: string, poolId: string) => `${poolId} ${userId}`

async function poolList(db: Pool, poolId: string, version: string): Promise<PoolList> {
  const { pools } = kept(db)
  const list = pools.get(poolId)
  if (list?.version === version) return list
  const read = await activeTargetsOf(db, poolId)
  const places = new Map(read.targets.map((t, i) => [t.id, i]))
  return keep(pools, poolId, { ...read, places }, MAX_POOLS)
}

async function showingsOf(
  db: Pool,
  list: PoolList,
  poolId: string,
  userId: string,
  version: string | null,
): Promise<Float64Array> {
  const { viewers } = kept(db)
  const key = viewerKey(userId, poolId)
  const known = viewers.get(key)
  if (known && known.list === list && known.version === version) {
    keep(viewers, key, known, MAX_VIEWERS)
    return known.at
  }
  const read = await lastShowingsOf(db, userId)
  const at = new Float64Array(list.targets.length).fill(Number.NaN)
  for (const [id, ms] of read.shown) {
    const place = list.places.get(id)
    if (place !== undefined) at[place] = ms
  }
  keep(viewers, key, { list, version: read.version, at }, MAX_VIEWERS)
  return at
}

/** The pool's active targets and, for a viewer, when each was last shown to them. */
export async function drawableTargets(
  db: Pool,
  poolId: string,
  userId: string | null,
): Promise<DrawableTarget[]> {
  if (!userId) {
    const { targets } = await poolList(db, poolId, await targetsVersion(db, poolId))
    return targets.map((t) => ({ id: t.id, frontloading: t.frontloading, lastShownAt: null }))
  }
  const versions = await drawVersionsOf(db, poolId, userId)
  const list = await poolList(db, poolId, versions.targets)
  const at = await showingsOf(db, list, poolId, userId, versions.showings)
  return list.targets.flatMap((t, i) => {
    if (t.contributedBy === userId) return []
    const ms = at[i] ?? Number.NaN
    return { id: t.id, frontloading: t.frontloading, lastShownAt: Number.isNaN(ms) ? null : ms }
  })
}

/**
 * A lock in this process showed these pictures at `version` (ms): the viewer's kept showings
 * move forward with it when they were those of just before the lock, and are dropped otherwise.
 */
export function recordShowing(
  db: Pool,
  shown: {
    userId: string
    poolId: string
    candidates: readonly string[]
    version: string
    versionBefore: string | null
  },
): void {
  const { viewers } = kept(db)
  const key = viewerKey(shown.userId, shown.poolId)
  const known = viewers.get(key)
  if (!known) return
  if (known.version !== shown.versionBefore) {
    viewers.delete(key)
    return
  }
  for (const id of shown.candidates) {
    const place = known.list.places.get(id)
    if (place !== undefined) known.at[place] = Number(shown.version)
  }
  known.version = shown.version
}
