// What the gateway's tests share: stand-in services on free ports and gateways, all closed after
// the test file; a port nothing listens on; the JSON lines a logger writes.
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll } from 'vitest'

const servers: Server[] = []
const apps: FastifyInstance[] = []
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
})

/** Listens on a free port of 127.0.0.1 until the file's tests are done; its base URL. */
export async function listen(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Closes the app when the file's tests are done. */
export function closeAfterAll<A extends FastifyInstance>(app: A): A {
  apps.push(app)
  return app
}

/** A port nothing listens on: a service that is down. */
export async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await new Promise((r) => server.close(r))
  return url
}

/** A stream for a pino logger, and the lines written to it, parsed. */
export function logLines<Line>(): { lines: Line[]; stream: Writable } {
  const lines: Line[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(text) as Line)
      done()
    },
  })
  return { lines, stream }
}
