import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'

const runFile = (dataDir: string) => join(dataDir, 'run', 'postgres.json')

/** Tells other tools (npm run admin) where the running app's embedded database listens. */
export function publishEmbeddedDatabase(dataDir: string, url: string, pid: number): void {
  mkdirSync(join(dataDir, 'run'), { recursive: true })
  writeFileSync(runFile(dataDir), JSON.stringify({ url, pid }))
}

export function unpublishEmbeddedDatabase(dataDir: string): void {
  rmSync(runFile(dataDir), { force: true })
}

/** The URL of the embedded database of a running app, if one is running. */
export function embeddedDatabaseUrl(dataDir: string): string | undefined {
  if (!existsSync(runFile(dataDir))) return undefined
  try {
    const { url, pid } = JSON.parse(readFileSync(runFile(dataDir), 'utf8')) as {
      url: string
      pid: number
    }
    process.kill(pid, 0)
    return url
  } catch {
    return undefined
  }
}

/** Opens the data directory here (only when no app has it open: one PGlite per directory). */
export async function openEmbeddedDatabase(
  dir: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const db = await PGlite.create({ dataDir: dir, postgresqlconf: ['shared_buffers=32MB'] })
  const server = await serveEmbeddedDatabase(db, { maxConnections: 4 })
  return {
    url: server.url,
    close: async () => {
      await server.stop()
      await db.close()
    },
  }
}
