// Gives every test project a real PostgreSQL: the machine's when DATABASE_URL is set, otherwise
// an in-memory PGlite behind the Postgres wire protocol (the same code path as `npm start`).
import type { TestProject } from 'vitest/node'
import './provided.ts'
import { PGlite } from '@electric-sql/pglite'
import { serveEmbeddedDatabase } from '../embedded-server.ts'

export default async function setup(project: TestProject) {
  project.provide('redisUrl', process.env.REDIS_URL ?? '')
  if (process.env.DATABASE_URL) {
    project.provide('databaseUrl', process.env.DATABASE_URL)
    return
  }
  const db = await PGlite.create()
  // As `npm start` serves it: a private Unix socket, each connection's query whole.
  const server = await serveEmbeddedDatabase(db, { maxConnections: 64 })
  project.provide('databaseUrl', server.url)
  return async () => {
    await server.stop()
    await db.close()
  }
}
