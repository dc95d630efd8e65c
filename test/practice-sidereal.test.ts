// The local sidereal time of a practice session is taken from the astro service twice: at the
// start and at the lock (the time of viewing, which the sidereal statistics use). Both services
// run as in production: astro on a port of its own, practice asking it over HTTP.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { BaseConfig, TokenVerifier } from '@crv/kit'
import { buildTestService, createTestKeys, testDatabaseUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import astroApp from '../services/astro/src/app.ts'
import { loadAstroConfig } from '../services/astro/src/config.ts'
import practiceApp from '../services/practice/src/app.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'
import { hoursApart } from '../services/practice/src/sessions/stats.ts'

type Plugin = FastifyPluginAsync<{ config: BaseConfig; verifyToken?: TokenVerifier }>
type Loader = (env: NodeJS.ProcessEnv) => BaseConfig

let keys: TestKeys
let astro: FastifyInstance
let practice: FastifyInstance

beforeAll(async () => {
  keys = await createTestKeys()
  astro = (await buildTestService(astroApp as Plugin, loadAstroConfig as Loader, {}, keys)).app
  const astroUrl = await astro.listen({ port: 0, host: '127.0.0.1' })
  practice = (
    await buildTestService(
      practiceApp as Plugin,
      loadPracticeConfig as Loader,
      { DATABASE_URL: testDatabaseUrl(), ASTRO_URL: astroUrl },
      keys,
    )
  ).app
}, 60_000)
afterAll(async () => {
  await Promise.all([practice?.close(), astro?.close()])
})

/** Apparent LST in hours at a longitude now, from the astro service's own answer. */
async function lstNow(longitude: number): Promise<number> {
  const res = await astro.inject({
    method: 'GET',
    url: `/api/sidereal-time/auto?lat=52.52&lng=${longitude}`,
  })
  return (res.json() as { lst_degrees: number }).lst_degrees / 15
}

describe('the sidereal time of a practice session', () => {
  it('is taken at the lock as well as at the start', async () => {
    const token = await keys.tokenFor('user', `sidereal-${randomUUID()}`)
    const headers = { authorization: `Bearer ${token}` }
    const started = await practice.inject({
      method: 'POST',
      url: '/api/practice/sessions',
      headers,
      payload: { latitude: 52.52, longitude: 13.4 },
    })
    expect(started.statusCode, started.body).toBe(201)
    const { id, lstHours } = started.json() as { id: string; lstHours: number | null }
    expect(lstHours).not.toBeNull()
    // As if the viewer had started an hour ago: the lock's time must be the lock's own.
    const anHourEarlier = ((lstHours ?? 0) + 23) % 24
    await practice.pg.query('UPDATE practice.sessions SET lst_hours = $2 WHERE id = $1', [
      id,
      anHourEarlier,
    ])
    const before = await lstNow(13.4)
    const locked = await practice.inject({
      method: 'POST',
      url: `/api/practice/sessions/${id}/lock`,
      headers,
    })
    expect(locked.statusCode, locked.body).toBe(200)
    const after = await lstNow(13.4)
    const view = (
      await practice.inject({ method: 'GET', url: `/api/practice/sessions/${id}`, headers })
    ).json() as { lstHours: number; lockLstHours: number | null }
    expect(view.lockLstHours).not.toBeNull()
    // Between the two readings taken around the lock (a few ms apart, on the 24-hour circle).
    const lock = view.lockLstHours ?? -1
    expect(hoursApart(lock, before) + hoursApart(lock, after)).toBeCloseTo(
      hoursApart(before, after),
      6,
    )
    expect(view.lstHours).toBe(anHourEarlier)
    expect(hoursApart(view.lockLstHours ?? 0, view.lstHours)).toBeGreaterThan(0.9)
  })
})
