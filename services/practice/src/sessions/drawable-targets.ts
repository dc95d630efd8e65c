// What a draw starts from: a pool's active targets, each with when it was last shown to the
// viewer. A start meets a pool of thousands of targets and a viewer with a thousand past sessions
// (issue [24]); reading both on every start held the embedded database's one thread for 11-16 ms
// and saturated it at 50 starts a second. So both are kept here between starts, and each start
// asks the database only for two versions (two index lookups, in the start's one read):
//   - the pool's targets' version, bumped by every statement that writes one of its targets
//     (migration 0007); the pool's list is read again when it moved;
//   - the viewer's showings' version, their latest showing: showings only move forward, to the
//     moment of a lock, and are deleted only all at once. A lock in this process brings the kept
//     showings forward itself; anything else (another replica's lock, a deletion) reads them again.
// A contributor's own targets are left out of their sets here (issue [24]), from the whole set
// and not only as its target, so every candidate stays equally likely to be the target.
import type { Database } from '@crv/kit/db'
import type { DrawablePool } from './candidate-sets.ts'
import { activeTargetsOf, drawVersionsOf, lastShowingsOf, targetsVersion } from './repository.ts'
import type { DrawVersions, PoolTarget } from './repository.ts'

interface PoolList {
  version: string
  targets: PoolTarget[]
  /** The draw's columns of `targets`, kept with the list. */
  ids: string[]
  hints: (string | null)[]
  imageSha256s: string[]
  /** Each target's place in `targets`. */
  places: Map<string, number>
  /** The places of each contributor's own targets, left out of their sets. */
  contributed: Map<string, Set<number>>
  /** Showings of a visitor (a trial): never. */
  never: Float64Array
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
  /** Reads of a pool's list under way, by pool and version: starts at once share one. */
  reading: Map<string, Promise<PoolList>>
  viewers: Map<string, Showings>
}
const keptFor = new WeakMap<Database, Kept>()

function kept(db: Database): Kept {
  let k = keptFor.get(db)
  if (!k) {
    k = { pools: new Map(), reading: new Map(), viewers: new Map() }
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

async function poolList(db: Database, poolId: string, version: string): Promise<PoolList> {
  const { pools, reading } = kept(db)
  const list = pools.get(poolId)
  if (list?.version === version) return list
  // One read for the starts that meet a moved version at once: each read made its own list,
  // and the viewers kept against the lists that lost read their showings again (8 of 50 after
  // the bench's first round, ~60 ms each of the database's one thread: start p99 0.5 s).
  const key = `${poolId} ${version}`
  let pending = reading.get(key)
  if (!pending) {
    pending = activeTargetsOf(db, poolId)
      .then((read) => {
        const current = pools.get(poolId)
        // A newer list kept meanwhile stays.
        if (current && BigInt(current.version) > BigInt(read.version)) return current
        return keep(pools, poolId, listOf(read.version, read.targets), MAX_POOLS)
      })
      .finally(() => reading.delete(key))
    reading.set(key, pending)
  }
  return pending
}

function listOf(version: string, targets: PoolTarget[]): PoolList {
  const contributed = new Map<string, Set<number>>()
  targets.forEach((t, i) => {
    if (!t.contributedBy) return
    const own = contributed.get(t.contributedBy) ?? new Set<number>()
    contributed.set(t.contributedBy, own.add(i))
  })
  return {
    version,
    targets,
    ids: targets.map((t) => t.id),
    hints: targets.map((t) => t.frontloading),
    imageSha256s: targets.map((t) => t.imageSha256),
    places: new Map(targets.map((t, i) => [t.id, i])),
    contributed,
    never: new Float64Array(targets.length).fill(Number.NaN),
  }
}

async function showingsOf(
  db: Database,
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
  if (known && known.version === version) {
    const at = carriedOver(known, list)
    if (at) {
      keep(viewers, key, { list, version, at }, MAX_VIEWERS)
      return at
    }
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

/**
 * A viewer's showings moved to a pool's new list without reading them again (~60 ms of the
 * database for 3,000 showings), when the list only lost targets: one it gained may have been
 * shown before (a target restored), and only the database knows.
 */
function carriedOver(known: Showings, list: PoolList): Float64Array | null {
  const at = new Float64Array(list.targets.length)
  for (let i = 0; i < list.targets.length; i++) {
    const before = known.list.places.get((list.targets[i] as PoolTarget).id)
    if (before === undefined) return null
    at[i] = known.at[before] ?? Number.NaN
  }
  return at
}

/** A pool as a start draws from it: with each target's picture hash, which the set commits to. */
export interface KeptPool extends DrawablePool {
  readonly imageSha256s: readonly string[]
}

/**
 * The pool's active targets and, for a viewer, when each was last shown to them; `versions`
 * when the caller read them already (a start reads them with its other reads).
 */
export async function drawableTargets(
  db: Database,
  poolId: string,
  userId: string | null,
  versions?: DrawVersions,
): Promise<KeptPool> {
  if (!userId) {
    const list = await poolList(db, poolId, await targetsVersion(db, poolId))
    return { ...columnsOf(list), shownAt: list.never, drawable: null }
  }
  const { targets, showings } = versions ?? (await drawVersionsOf(db, poolId, userId))
  const list = await poolList(db, poolId, targets)
  const shownAt = await showingsOf(db, list, poolId, userId, showings)
  return { ...columnsOf(list), shownAt, drawable: drawableBy(list, userId) }
}

const columnsOf = (list: PoolList) => ({
  ids: list.ids,
  hints: list.hints,
  imageSha256s: list.imageSha256s,
  places: list.places,
})

/** The places a viewer's sets may come from: all but their own contributions (null: all). */
function drawableBy(list: PoolList, userId: string): Int32Array | null {
  const own = list.contributed.get(userId)
  if (!own) return null
  const places = new Int32Array(list.targets.length - own.size)
  let n = 0
  for (let i = 0; i < list.targets.length; i++) if (!own.has(i)) places[n++] = i
  return places
}

/**
 * A lock in this process showed these pictures at `version` (ms): the viewer's kept showings
 * move forward with it when they were those of just before the lock, and are dropped otherwise.
 */
export function recordShowing(
  db: Database,
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
