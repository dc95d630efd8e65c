import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import {
  AppError,
  baseConfigShape,
  fastifyBaseOptions,
  installRequestLog,
  loadConfig,
  loggerOptions,
  SLOW_REQUEST_MS,
} from '../src/index.ts'

interface Line {
  level: number
  msg: string
  status?: number
}

async function appLoggingTo(lines: Line[]) {
  const config = loadConfig(baseConfigShape('log-test', 0), { LOG_LEVEL: 'info' })
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as Line)
      done()
    },
  })
  const app = Fastify({
    ...fastifyBaseOptions(config),
    logger: { ...loggerOptions(config), stream },
  })
  installRequestLog(app)
  app.get('/ok', async () => ({ ok: true }))
  app.get('/missing', async () => {
    throw new AppError('not_found', 404, 'Not found')
  })
  app.get('/boom', async () => {
    throw new Error('broken')
  })
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, SLOW_REQUEST_MS + 50))
    return { ok: true }
  })
  await app.ready()
  return app
}

const requestLines = (lines: Line[]) => lines.filter((l) => /request$/.test(l.msg))

describe('the request log at the default level', () => {
  it('writes nothing for an ordinary successful request', async () => {
    const lines: Line[] = []
    const app = await appLoggingTo(lines)
    for (let i = 0; i < 20; i++) await app.inject('/ok')
    expect(requestLines(lines)).toEqual([])
    await app.close()
  })

  it('always writes client errors, failures and slow requests', async () => {
    const lines: Line[] = []
    const app = await appLoggingTo(lines)
    await app.inject('/missing')
    await app.inject('/boom')
    await app.inject('/slow')
    expect(requestLines(lines).map((l) => [l.msg, l.status, l.level])).toEqual([
      ['request', 404, 30],
      ['request', 500, 50],
      ['slow request', 200, 40],
    ])
    await app.close()
  })
})
