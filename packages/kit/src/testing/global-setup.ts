// Gives every test project a real PostgreSQL: the machine's when DATABASE_URL is set, otherwise
// an in-memory PGlite behind the Postgres wire protocol (the same code path as `npm start`).
import type { TestProject } from 'vitest/node'
import './provided.ts'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { ProtocolQueue } from '../protocol-queue.ts'

export default async function setup(project: TestProject) {
  project.provide('redisUrl', process.env.REDIS_URL ?? '')
  if (process.env.DATABASE_URL) {
    project.provide('databaseUrl', process.env.DATABASE_URL)
    return
  }
  const db = await PGlite.create()
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 64 })
  // As `npm start` serves it: each connection's query whole (../protocol-queue.ts).
  Object.assign(server, { queryQueue: new ProtocolQueue(db) })
  await server.start()
  project.provide(
    'databaseUrl',
    `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
  )
  return async () => {
    await server.stop()
    await db.close()
  }
}
