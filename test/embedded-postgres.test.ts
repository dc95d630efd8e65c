// The embedded database under concurrent connections: each connection's parameterised
// queries (Parse, Bind, Execute, Sync) must be served whole, or another connection's Parse
// replaces the unnamed statement between them (packages/kit/src/protocol-queue.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'
import type { EmbeddedServer } from '@crv/kit/embedded-server'
import { ProtocolQueue } from '@crv/kit/protocol-queue'

describe('the order of wire-protocol messages', () => {
  // The scheduling alone, on a recorder in place of PGlite: which message is served when.
  const recorder = () => {
    const served: string[] = []
    const db = {
      isInTransaction: () => false,
      runExclusive: <T>(fn: () => Promise<T>) => fn(),
      execProtocolRawStream: async (message: Uint8Array) => {
        served.push(String.fromCharCode(message[0] ?? 0) + String.fromCharCode(message[1] ?? 0))
      },
    }
    return { served, queue: new ProtocolQueue(db as unknown as PGlite) }
  }
  // A message: its type letter, then the connection's letter for the test's bookkeeping.
  const msg = (type: string, who: string) => new Uint8Array([type.charCodeAt(0), who.charCodeAt(0)])

  it("serves a connection's Parse to Sync whole before another connection's Parse", async () => {
    const { served, queue } = recorder()
    const noop = () => {}
    // A's turn arrives a message at a time, as pglite-socket hands it over; B's Parse lands
    // between A's Parse and Bind.
    const a = (async () => {
      for (const t of ['P', 'B', 'E', 'S']) await queue.enqueue(1, msg(t, 'a'), noop)
    })()
    const b = queue
      .enqueue(2, msg('P', 'b'), noop)
      .then(() => queue.enqueue(2, msg('S', 'b'), noop))
    await Promise.all([a, b])
    expect(served).toEqual(['Pa', 'Ba', 'Ea', 'Sa', 'Pb', 'Sb'])
  })
})

describe('the embedded database shared by many connections', () => {
  let db: PGlite
  let server: EmbeddedServer
  let url: string
  beforeAll(async () => {
    db = await PGlite.create()
    server = await serveEmbeddedDatabase(db, { maxConnections: 32 })
    url = server.url
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await db?.close()
  })

  it('answers parameterised queries from 8 connections at once, each its own answer', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 8 })
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 400 }, (_, i) =>
          // A different statement each time: a Bind that reached another Parse would add the wrong k.
          pool
            .query<{ n: number }>(`SELECT $1::int + ${i % 7} AS n`, [i])
            .then((r) => r.rows[0]?.n),
        ),
      )
      const failed = results.filter((r) => r.status === 'rejected')
      expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([])
      expect(results.map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual(
        Array.from({ length: 400 }, (_, i) => i + (i % 7)),
      )
    } finally {
      await pool.end()
    }
  })

  it('keeps a transaction on its own connection while others query', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 })
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS t (v int)')
      const tx = await pool.connect()
      await tx.query('BEGIN')
      await tx.query('INSERT INTO t VALUES ($1)', [1])
      // Another connection meanwhile: served after the transaction ends, and sees its result.
      const other = pool.query<{ c: string }>('SELECT count(*) AS c FROM t')
      await tx.query('INSERT INTO t VALUES ($1)', [2])
      await tx.query('COMMIT')
      tx.release()
      expect(Number((await other).rows[0]?.c)).toBe(2)
    } finally {
      await pool.end()
    }
  })
})
