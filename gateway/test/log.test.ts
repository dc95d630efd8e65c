// The gateway's log at the default level: a proxied success writes nothing, a failure a line
// (issue [11] item 8: two info lines per request filled 5,700 lines in half an hour).
import { createServer } from 'node:http'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { fastifyBaseOptions, loggerOptions } from '@crv/kit'
import { testEnv } from '@crv/kit/testing'
import gatewayApp from '../src/app.ts'
import { loadGatewayConfig } from '../src/config.ts'
import { listen, logLines } from './servers.ts'

type Line = { level: number; msg: string; status?: number }

const upstream = createServer((req, res) => {
  const broken = req.url?.includes('boom')
  res.writeHead(broken ? 500 : 200, { 'content-type': 'application/json' })
  res.end(broken ? '{"error":{"code":"internal_error","message":"x"}}' : '{"ok":true}')
})
const astroUrl = await listen(upstream)

describe('the gateway log at info', () => {
  it('writes no line for a proxied success, and one for a failure', async () => {
    const { lines, stream } = logLines<Line>()
    const config = loadGatewayConfig(testEnv({ LOG_LEVEL: 'info', ASTRO_URL: astroUrl }))
    const app = Fastify({
      ...fastifyBaseOptions(config),
      logger: { ...loggerOptions(config), stream },
    })
    await app.register(gatewayApp, { config })
    await app.ready()
    try {
      const before = lines.length
      for (let i = 0; i < 5; i++) {
        const res = await app.inject('/api/sidereal-time/auto?lat=52.52&lng=13.4')
        expect(res.statusCode).toBe(200)
      }
      expect(lines.slice(before)).toEqual([])
      const failed = await app.inject('/api/sidereal-time/auto?lat=52.52&lng=13.4&boom=1')
      expect(failed.statusCode).toBe(500)
      const after = lines.slice(before)
      expect(after).toHaveLength(1)
      expect(after[0]).toMatchObject({ msg: 'request', status: 500 })
    } finally {
      await app.close()
    }
  })
})
