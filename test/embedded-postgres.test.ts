// The embedded database under concurrent connections: each connection's parameterised
// queries (Parse, Bind, Execute, Sync) must be served whole, or another connection's Parse
// replaces the unnamed statement between them, and reach the database as one call
// (packages/kit/src/protocol-queue.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { PGlite } from '@electric-sql/pglite'
import { serveEmbeddedDatabase } from '@crv/kit/embedded-server'
import type { EmbeddedServer } from '@crv/kit/embedded-server'
import { ProtocolQueue } from '@crv/kit/protocol-queue'

describe('the order of wire-protocol messages', () => {
  // The scheduling alone, on a recorder in place of PGlite: what each call into it holds.
  const recorder = () => {
    const served: string[] = []
    const db = {
      isInTransaction: () => false,
      runExclusive: <T>(fn: () => Promise<T>) => fn(),
      execProtocolRawStream: async (message: Uint8Array) => {
        served.push(String.fromCharCode(...message))
      },
    }
    return { served, queue: new ProtocolQueue(db as unknown as PGlite) }
  }
  // A message: its type letter, then the connection's letter for the test's bookkeeping.
  const msg = (type: string, who: string) => new Uint8Array([type.charCodeAt(0), who.charCodeAt(0)])
  const noop = () => {}

  it("hands a connection's Parse to Sync to the database whole, in one call, never mixed with another's", async () => {
    const { served, queue } = recorder()
    // A's turn arrives a message at a time, as pglite-socket hands it over; B's Parse lands
    // between A's Parse and Bind.
    const a = (async () => {
      for (const t of ['P', 'B', 'D', 'E', 'S']) await queue.enqueue(1, msg(t, 'a'), noop)
    })()
    const b = queue
      .enqueue(2, msg('P', 'b'), noop)
      .then(() => queue.enqueue(2, msg('S', 'b'), noop))
    await Promise.all([a, b])
    expect([...served].sort()).toEqual(['PaBaDaEaSa', 'PbSb'])
  })

  it('hands held messages over at a Flush, and keeps the turn with that connection until its Sync', async () => {
    const { served, queue } = recorder()
    for (const t of ['P', 'B', 'E', 'H']) await queue.enqueue(1, msg(t, 'a'), noop)
    // B's query arrives while A's turn is open (A reads rows after its Flush, as a cursor does).
    const b = queue
      .enqueue(2, msg('P', 'b'), noop)
      .then(() => queue.enqueue(2, msg('S', 'b'), noop))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(served).toEqual(['PaBaEaHa'])
    await queue.enqueue(1, msg('E', 'a'), noop)
    await queue.enqueue(1, msg('S', 'a'), noop)
    await b
    expect(served).toEqual(['PaBaEaHa', 'EaSa', 'PbSb'])
  })

  it("drops a connection's held messages when it goes", async () => {
    const { served, queue } = recorder()
    await queue.enqueue(1, msg('P', 'a'), noop)
    queue.clearQueueForHandler(1)
    await queue.enqueue(1, msg('S', 'a'), noop)
    expect(served).toEqual(['Sa'])
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
