import { createServer } from 'node:net'
import type { Server } from 'node:net'

const listen = (): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })

const portOf = (server: Server): number => {
  const address = server.address()
  if (!address || typeof address !== 'object') throw new Error('no port')
  return address.port
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/** A TCP port that is free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1)
  return port as number
}

/**
 * `count` distinct TCP ports free on 127.0.0.1 right now, none of them in `avoid`. Every port is
 * held until all are found, so the kernel cannot hand the same one out twice; `avoid` names ports
 * promised elsewhere but not yet bound (the gateway's, which a caller may itself have found free
 * a moment ago).
 */
export async function freePorts(count: number, avoid: Iterable<number> = []): Promise<number[]> {
  const avoided = new Set(avoid)
  const held: Server[] = []
  const ports: number[] = []
  try {
    while (ports.length < count) {
      const server = await listen()
      held.push(server)
      const port = portOf(server)
      if (!avoided.has(port)) ports.push(port)
    }
  } finally {
    await Promise.all(held.map(close))
  }
  return ports
}
