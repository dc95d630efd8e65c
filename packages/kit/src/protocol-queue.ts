// The order in which the embedded database serves its connections' messages.
//
// @electric-sql/pglite-socket 0.2 queues every wire-protocol message on its own and keeps one
// connection's messages together only inside a transaction. node-postgres sends a
// parameterised query as Parse, Bind, Describe, Execute, Sync; when two connections' sequences
// interleave, the second Parse replaces the first's unnamed statement and the first Bind fails
// with "unnamed prepared statement does not exist" (seen under load: a service's start-up hung
// on it). This queue serves a connection's extended-protocol sequence whole, up to its Sync,
// before another connection's message, and inside a transaction as before.
//
// A sequence also reaches the database as one call: the queue holds a connection's Parse, Bind,
// Describe, Execute and Close until its Sync (or Flush, or any other message) arrives, and hands
// them over together. The client reads nothing before its Sync or Flush, so nothing is answered
// later than it would be. Each call into PGlite costs its own crossing into WebAssembly and out:
// one parameterised query as five calls took 370-590 µs of the database's one thread, as one
// 250-290 µs (docs/decisions/embedded-db-protocol-queue.md).
import type { PGlite } from '@electric-sql/pglite'

interface Item {
  handlerId: number
  /** The message, after the ones held for it. */
  message: Uint8Array
  /** The type of the message itself (what it does to the connection's turn). */
  type: number
  onData: (data: Uint8Array) => void
  resolve: (bytes: number) => void
  reject: (err: unknown) => void
}

// Messages that end a client's turn: Sync ('S'), a simple Query ('Q'), Terminate ('X').
const ENDS_TURN = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)))
// Messages of the extended protocol that open or continue a turn.
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'F'].map((c) => c.charCodeAt(0)))
// Messages the database answers only when a Sync or a Flush asks: held until then.
const HELD = new Set(['P', 'B', 'D', 'E', 'C'].map((c) => c.charCodeAt(0)))

export class ProtocolQueue {
  private readonly db: PGlite
  private queue: Item[] = []
  private processing = false
  /** The connection whose extended-protocol turn is open, if any. */
  private owner: number | null = null
  private lastHandlerId: number | null = null
  /** Each connection's messages held for its next Sync or Flush (see above). */
  private held = new Map<number, Uint8Array[]>()

  constructor(db: PGlite) {
    this.db = db
  }

  enqueue(handlerId: number, message: Uint8Array, onData: Item['onData']): Promise<number> {
    const type = message[0] ?? 0
    const held = this.held.get(handlerId)
    if (HELD.has(type)) {
      if (held) held.push(message)
      else this.held.set(handlerId, [message])
      return Promise.resolve(0)
    }
    if (held) {
      this.held.delete(handlerId)
      held.push(message)
      message = new Uint8Array(Buffer.concat(held))
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, type, onData, resolve, reject })
      if (!this.processing) void this.processQueue()
    })
  }

  private next(): Item | undefined {
    // An open extended-protocol turn, or else an open transaction, keeps its connection.
    let current = this.owner
    if (current === null && this.db.isInTransaction()) current = this.lastHandlerId
    if (current === null) return this.queue.shift()
    const i = this.queue.findIndex((item) => item.handlerId === current)
    // The holder has sent nothing more yet: wait for it (enqueue restarts processing).
    return i === -1 ? undefined : this.queue.splice(i, 1)[0]
  }

  async processQueue(): Promise<void> {
    if (this.processing) return
    this.processing = true
    try {
      for (let item = this.next(); item; item = this.next()) {
        const { handlerId, message, onData } = item
        let bytes = 0
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length
                onData(data)
              },
            }),
          )
        } catch (err) {
          if (this.owner === handlerId) this.owner = null
          item.reject(err)
          continue
        }
        const { type } = item
        if (EXTENDED.has(type)) this.owner = handlerId
        else if (ENDS_TURN.has(type) && this.owner === handlerId) this.owner = null
        this.lastHandlerId = handlerId
        item.resolve(bytes)
      }
    } finally {
      this.processing = false
    }
  }

  getQueueLength(): number {
    return this.queue.length
  }

  clearQueueForHandler(handlerId: number): void {
    this.held.delete(handlerId)
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true
      item.reject(new Error('Handler disconnected'))
      return false
    })
    if (this.owner === handlerId) {
      this.owner = null
      if (!this.processing) void this.processQueue()
    }
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.db.isInTransaction() && this.lastHandlerId === handlerId) {
      await this.db.exec('ROLLBACK')
      this.lastHandlerId = null
      await this.processQueue()
    }
  }
}
