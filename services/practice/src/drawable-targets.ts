// What a draw starts from: a pool's active targets, each with when it was last shown to the
// viewer. A start meets a pool of thousands of targets (issue [24]), and reading the whole list
// on every start held the embedded database's one thread for 11-16 ms: the list is kept here
// between starts and read again only when the targets' version (bumped in the database by every
// statement that writes a target, migration 0007) moved. Each start reads only the viewer's
// showings, with that version, in one statement; another replica's writes are seen the same way.
import type { Pool } from 'pg'
import type { DrawableTarget } from './candidate-sets.ts'
import { activeTargetsOf, lastShowingsOf, targetsVersion } from './repository.ts'

interface PoolList {
  version: string
  targets: { id: string; frontloading: string | null }[]
}

/** Pools kept per database; a service has a handful, this bounds a misuse. */
const MAX_POOLS = 64
const lists = new WeakMap<Pool, Map<string, PoolList>>()

async function poolList(db: Pool, poolId: string, version: string): Promise<PoolList> {
  const kept = lists.get(db) ?? new Map<string, PoolList>()
  lists.set(db, kept)
  const list = kept.get(poolId)
  if (list?.version === version) return list
  const read = await activeTargetsOf(db, poolId)
  kept.delete(poolId)
  if (kept.size >= MAX_POOLS) kept.delete(kept.keys().next().value as string)
  kept.set(poolId, read)
  return read
}

/** The pool's active targets and, for a viewer, when each was last shown to them. */
export async function drawableTargets(
  db: Pool,
  poolId: string,
  userId: string | null,
): Promise<DrawableTarget[]> {
  const { version, shown } = userId
    ? await lastShowingsOf(db, userId)
    : { version: await targetsVersion(db), shown: new Map<string, number>() }
  const { targets } = await poolList(db, poolId, version)
  return targets.map((t) => ({ ...t, lastShownAt: shown.get(t.id) ?? null }))
}
