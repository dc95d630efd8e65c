import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Descriptor } from '../src/vocabulary/views.ts'
import { UserStates } from '../src/vocabulary/user-cache.ts'
import type { UserState } from '../src/vocabulary/user-cache.ts'
import { harness } from './helpers.ts'
import type { Harness } from './helpers.ts'

const state = (ids: number[]): UserState => ({ custom: [], hidden: new Set(ids) })

/** A loader that answers what `stored` holds when it is called, and counts its calls. */
function fakeStore() {
  const store = {
    stored: new Map<string, number[]>(),
    calls: 0,
    /** Reads wait for this before they answer, so a test can hold one in flight. */
    gate: Promise.resolve() as Promise<unknown>,
    load: async (userId: string) => {
      store.calls += 1
      const ids = [...(store.stored.get(userId) ?? [])]
      await store.gate
      return state(ids)
    },
  }
  return store
}

describe('the per-process store of callers’ own words and hides', () => {
  it('reads every time when it is off', async () => {
    const db = fakeStore()
    const users = new UserStates(db.load, { enabled: false })
    await users.get('u1', 'en')
    await users.get('u1', 'en')
    expect(db.calls).toBe(2)
    expect(users.size).toBe(0)
  })

  it('keeps a state per user and language, and reads it again after a write', async () => {
    const db = fakeStore()
    const users = new UserStates(db.load, { enabled: true })
    db.stored.set('u1', [1])
    expect([...(await users.get('u1', 'en')).hidden]).toEqual([1])
    db.stored.set('u1', [1, 2])
    expect([...(await users.get('u1', 'en')).hidden]).toEqual([1]) // kept
    await users.get('u1', 'de')
    expect(db.calls).toBe(2)
    users.forget('u1')
    expect([...(await users.get('u1', 'en')).hidden]).toEqual([1, 2])
    expect([...(await users.get('u1', 'de')).hidden]).toEqual([1, 2])
    expect(db.calls).toBe(4)
  })

  it('forgets one user without touching the others; clear forgets everyone', async () => {
    const db = fakeStore()
    const users = new UserStates(db.load, { enabled: true })
    await users.get('u1', 'en')
    await users.get('u2', 'en')
    users.forget('u1')
    expect(users.size).toBe(1)
    users.clear()
    expect(users.size).toBe(0)
  })

  it('never keeps a read that was in flight when a write forgot the user', async () => {
    const db = fakeStore()
    const users = new UserStates(db.load, { enabled: true })
    let release = () => {}
    db.gate = new Promise<void>((resolve) => (release = resolve))
    db.stored.set('u1', [1])
    const early = users.get('u1', 'en') // read the old rows, still answering
    db.stored.set('u1', [1, 2]) // the write commits…
    users.forget('u1') // …and forgets
    release()
    expect([...(await early).hidden]).toEqual([1])
    db.gate = Promise.resolve()
    expect([...(await users.get('u1', 'en')).hidden]).toEqual([1, 2])
  })

  it('reads again after its time to live, keeps at most maxEntries, and never keeps a failure', async () => {
    const db = fakeStore()
    const aged = new UserStates(db.load, { enabled: true, ttlMs: 0 })
    await aged.get('u1', 'en')
    await aged.get('u1', 'en')
    expect(db.calls).toBe(2)

    const bounded = new UserStates(db.load, { enabled: true, maxEntries: 2 })
    await bounded.get('a', 'en')
    await bounded.get('b', 'en')
    await bounded.get('a', 'en') // a is now the most recently used
    await bounded.get('c', 'en') // so b goes
    expect(bounded.size).toBe(2)
    const before = db.calls
    await bounded.get('a', 'en')
    await bounded.get('b', 'en')
    expect(db.calls).toBe(before + 1)

    let fail = true
    const flaky = new UserStates(
      async () => {
        if (fail) throw new Error('database gone')
        return state([])
      },
      { enabled: true },
    )
    await expect(flaky.get('u1', 'en')).rejects.toThrow('database gone')
    fail = false
    await expect(flaky.get('u1', 'en')).resolves.toEqual(state([]))
  })
})

// The same journeys with the store off (replicas) and on (the launcher's one process): every
// write a user or an administrator makes shows in the user's next trainer call.
describe.each(['off', 'local'])('the trainer after each write, USER_STATE_CACHE=%s', (mode) => {
  let h: Harness
  let user: string
  let admin: string
  let smallest: { id: number; kind: 'gestaltIds' | 'perceptionIds'; ids: number[] }
  beforeAll(async () => {
    h = await harness({ USER_STATE_CACHE: mode })
    user = await h.keys.tokenFor('user')
    admin = await h.keys.tokenFor('admin')
    // The Stage 1-2 category with the fewest English words: the user hides all of them.
    const bulk = (await h.as(user).get('/api/descriptors/bulk?language=en')).json()
    const stageOf = new Map<number, string>()
    for (const c of (await h.as(null).get('/api/perceptions?language=en')).json())
      stageOf.set(c.id, c.stage)
    const groups = [
      ...bulk.byGestalt.map((g: { categoryId: number; descriptorIds: number[] }) => ({
        id: g.categoryId,
        kind: 'gestaltIds' as const,
        ids: g.descriptorIds,
      })),
      ...bulk.byPerception
        .filter((g: { categoryId: number }) => stageOf.get(g.categoryId) === 'Stage 1-2')
        .map((g: { categoryId: number; descriptorIds: number[] }) => ({
          id: g.categoryId,
          kind: 'perceptionIds' as const,
          ids: g.descriptorIds,
        })),
    ].sort((a, b) => a.ids.length - b.ids.length)
    smallest = groups[0]
  })
  afterAll(() => h.app.close())

  const bulkOf = async (token: string) =>
    (await h.as(token).get('/api/descriptors/bulk?language=en')).json() as {
      userCustomDescriptors: Descriptor['api'][]
      hiddenDescriptorIds: number[]
    }
  const random = (token: string) =>
    h.as(token).post('/api/descriptors/random', {
      gestaltIds: smallest.kind === 'gestaltIds' ? [smallest.id] : [],
      perceptionIds: smallest.kind === 'perceptionIds' ? [smallest.id] : [],
      stages: ['Stage 1-2'],
      language: 'en',
    })
  const addWord = async (token: string, text: string) => {
    const res = await h.as(token).post('/api/descriptors', {
      word: text,
      language: 'en',
      [smallest.kind === 'gestaltIds' ? 'gestaltId' : 'perceptionId']: smallest.id,
    })
    expect(res.statusCode).toBe(201)
    return res.json() as Descriptor['api']
  }

  it('hides, adds, deletes and unhides, each seen by the next random word and list', async () => {
    // Warm the state before every write, so that a kept copy would show.
    expect((await random(user)).statusCode).toBe(200)
    for (const id of smallest.ids) {
      expect((await h.as(user).post(`/api/descriptors/${id}/toggle-hide`)).json()).toEqual({
        hidden: true,
      })
      await bulkOf(user)
    }
    expect((await bulkOf(user)).hiddenDescriptorIds).toEqual(expect.arrayContaining(smallest.ids))
    expect((await random(user)).json().error.code).toBe('no_descriptors')

    const mine = await addWord(user, `own-${mode}-${Date.now()}`)
    expect((await random(user)).json().id).toBe(mine.id)
    expect((await bulkOf(user)).userCustomDescriptors.map((d) => d.id)).toContain(mine.id)

    expect((await h.as(user).delete(`/api/descriptors/${mine.id}`)).statusCode).toBe(204)
    expect((await random(user)).json().error.code).toBe('no_descriptors')
    expect((await bulkOf(user)).userCustomDescriptors.map((d) => d.id)).not.toContain(mine.id)

    const back = smallest.ids[0] as number
    await h.as(user).post(`/api/descriptors/${back}/toggle-hide`)
    expect((await random(user)).json().id).toBe(back)
    expect((await bulkOf(user)).hiddenDescriptorIds).not.toContain(back)
  })

  it("shows an administrator's promote, reject and delete in the author's next call", async () => {
    const promoted = await addWord(user, `promote-${mode}-${Date.now()}`)
    const rejected = await addWord(user, `reject-${mode}-${Date.now()}`)
    const deleted = await addWord(user, `delete-${mode}-${Date.now()}`)
    const statusOf = async (id: number) =>
      (await bulkOf(user)).userCustomDescriptors.find((d) => d.id === id)?.status
    expect(await statusOf(promoted.id)).toBe('pending')

    expect(
      (await h.as(admin).post(`/api/admin/promote-descriptor/${promoted.id}`)).statusCode,
    ).toBe(200)
    expect(await statusOf(promoted.id)).toBe('approved')

    expect(
      (await h.as(admin).delete(`/api/admin/reject-descriptor/${rejected.id}`)).statusCode,
    ).toBe(204)
    expect(await statusOf(rejected.id)).toBeUndefined()

    expect((await h.as(admin).delete(`/api/descriptors/${deleted.id}`)).statusCode).toBe(204)
    expect(await statusOf(deleted.id)).toBeUndefined()
  })
})
