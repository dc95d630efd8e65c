// The bounded attacker of test/faults.test.ts (issue [23]), a process of its own that the test
// starts at the lowest CPU priority: its own work (making requests, reading answers) then takes
// only CPU the server leaves, as if it ran on another machine, while the server's work for it
// runs at normal priority; and it never delays the test's event loop that times the other
// users. A fixed number of connections, each sending its next request as soon as the last is
// answered, while the test lets it ('resume' until 'pause'); at 'stop' it sends what each
// request got.
import { randomInt, randomUUID } from 'node:crypto'
import { Agent, request } from 'node:http'
import { newPhone } from './kit/sign-in.ts'

export interface AttackerOptions {
  /** The gateway, `http://127.0.0.1:PORT`. */
  base: string
  /** The attacker's own account. */
  token: string
  /** Eleven of the attacker's review words: ten for spread batches, one for single-word ones. */
  words: number[]
  /** The /64 the sign-in requests come from, its first four groups (`2001:db8:a:b`). */
  network: string
  timeoutMs: number
  /** Which requests: rebound hosts and a /64's sign-ins, or review batches (two connections). */
  part: 'hosts and addresses' | 'review batches'
}

export type AttackKind =
  | 'rebound host'
  | 'rebound host, POST with its Origin'
  | 'rebound X-Forwarded-Host'
  | 'sign-in code from a /64'
  | 'batch out of order'
  | 'batch replayed'
  | 'batch of one word'
  | 'batch dated outside the window'

export interface AttackRecord {
  kind: AttackKind
  /** The HTTP status; -1 when not answered within `timeoutMs`, 0 when the connection failed. */
  status: number
  ms: number
  /** The error body's code. */
  code?: string
  /** A review batch's results: how many, the most for one word, how many were new. */
  results?: number
  perWord?: number
  applied?: number
  /** How many of them an earlier batch had already applied: an answer counted twice. */
  appliedTwice?: number
}

interface Answered {
  status: number
  body: unknown
}

const REBOUND = 'rebind.attacker.example'
/**
 * Each connection sends at most 100 requests a second (600 in all from six): the bound of the
 * bounded attacker, above the 400 a second of the attack run's flood of the health endpoint
 * (issue [23] item 8). Unpaced, six connections of 421 answers reached 1,660 a second, and the
 * case measured how two cores share themselves out more than what the app lets an attacker do.
 */
const PACE_MS = 10
/** The contract's largest batch. */
const BATCH = 500

export type AttackerMessage = 'resume' | 'pause' | 'stop'
export type AttackerReply = 'paused' | 'resumed' | { records: AttackRecord[] }

const options = JSON.parse(process.env.CRV_ATTACKER ?? '{}') as AttackerOptions
const { hostname, port } = new URL(options.base)
const host = `${REBOUND}:${port}`
const records: AttackRecord[] = []
let running = true
/** Closed (a promise) while paused; the connections wait on it between requests. */
let gate: Promise<void> | undefined
let open = () => {}
let inFlight = 0
let drained = () => {}

/** One request on `agent` (one connection), answered or given up after `timeoutMs`. */
function send(
  agent: Agent,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answered> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        hostname,
        port,
        method,
        path,
        headers: {
          host: `${hostname}:${port}`,
          ...headers,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          let parsed: unknown = text
          try {
            parsed = JSON.parse(text)
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed })
        })
        res.on('error', () => resolve({ status: 0, body: null }))
      },
    )
    req.setTimeout(options.timeoutMs, () => {
      req.destroy()
      resolve({ status: -1, body: null })
    })
    req.on('error', () => resolve({ status: 0, body: null }))
    req.end(payload)
  })
}

const codeOf = (body: unknown) => (body as { error?: { code?: string } } | null)?.error?.code

/** One request the attacker is about to send. */
interface Attack {
  kind: AttackKind
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: unknown
}

/** Sends `next()`'s request over one connection as fast as answers come back. */
async function connection(
  next: () => Attack,
  seen?: (record: AttackRecord, answered: Answered) => void,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  for (;;) {
    await gate
    if (!running) break
    const { kind, method, path, headers, body } = next()
    const started = performance.now()
    inFlight += 1
    const answered = await send(agent, method, path, headers, body)
    inFlight -= 1
    if (inFlight === 0) drained()
    const record: AttackRecord = {
      kind,
      status: answered.status,
      ms: performance.now() - started,
      code: codeOf(answered.body),
    }
    seen?.(record, answered)
    records.push(record)
    // Bounded: at most one request every PACE_MS on each connection.
    const rest = PACE_MS - (performance.now() - started)
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest))
  }
  agent.destroy()
}

/** (a) A page on a rebound name: its Host, its Origin, or a proxy's X-Forwarded-Host naming it. */
function rebound(): () => Attack {
  let n = 0
  return (): Attack => {
    const variant = n++ % 3
    if (variant === 0)
      return {
        kind: 'rebound host',
        method: 'GET',
        path: '/api/auth/dev/sms-outbox',
        headers: { host },
      }
    if (variant === 1)
      return {
        kind: 'rebound host, POST with its Origin',
        method: 'POST',
        path: '/api/auth/phone/start',
        headers: { host, origin: `http://${host}` },
        body: { phone: newPhone() },
      }
    return {
      kind: 'rebound X-Forwarded-Host',
      method: 'GET',
      path: '/api/auth/dev/sms-outbox',
      headers: { 'x-forwarded-host': host },
    }
  }
}

/** (b) Sign-in codes for fresh numbers, each from the next address of one /64. */
let address = 0
function signIns(): () => Attack {
  return (): Attack => ({
    kind: 'sign-in code from a /64',
    method: 'POST',
    path: '/api/auth/phone/start',
    headers: { 'x-forwarded-for': `${options.network}::${(++address).toString(16)}` },
    body: { phone: newPhone() },
  })
}

/**
 * (c) Review batches of the attacker's own account, in turn: 500 answers over ten words, each
 * older than every answer sent before it (each reaches back past the cards' whole history); the
 * same batch again; 500 answers to one word in shuffled order; a batch with one answer dated
 * year 0001 or a year ahead. Each connection replays only a batch it has had answered.
 */
let oldest = Date.now() - 3_600_000
function batches(): () => Attack {
  let n = 0
  let last: unknown[] = []
  const ratings = ['good', 'again', 'hard', 'easy'] as const
  const answer = (descriptorId: number, at: number, i: number) => ({
    id: randomUUID(),
    descriptorId,
    rating: ratings[i % ratings.length],
    answeredAt: new Date(at).toISOString(),
  })
  const json = { authorization: `Bearer ${options.token}` }
  const spread = options.words.slice(0, 10)
  const single = options.words[10] ?? 0
  return (): Attack => {
    const turn = n++ % 4
    if (turn === 1 && last.length > 0)
      return {
        kind: 'batch replayed',
        method: 'POST',
        path: '/api/reviews',
        headers: json,
        body: { answers: last },
      }
    if (turn === 2)
      return {
        kind: 'batch of one word',
        method: 'POST',
        path: '/api/reviews',
        headers: json,
        body: {
          answers: Array.from({ length: BATCH }, (_, i) =>
            answer(single, Date.now() - 3_600_000 - randomInt(0, 86_400_000), i),
          ),
        },
      }
    if (turn === 3) {
      const answers = Array.from({ length: BATCH }, (_, i) =>
        answer(spread[i % spread.length] ?? 0, Date.now() - 60_000 * (i + 1), i),
      )
      const outside =
        n % 8 === 0
          ? '0001-01-01T00:00:00.000Z'
          : new Date(Date.now() + 365 * 86_400_000).toISOString()
      answers[randomInt(0, BATCH)] = { ...answer(spread[0] ?? 0, 0, 0), answeredAt: outside }
      return {
        kind: 'batch dated outside the window',
        method: 'POST',
        path: '/api/reviews',
        headers: json,
        body: { answers },
      }
    }
    const answers = Array.from({ length: BATCH }, (_, i) =>
      answer(spread[i % spread.length] ?? 0, oldest - (i + 1) * 1000, i),
    )
    oldest -= (BATCH + 1) * 1000
    last = answers
    return {
      kind: 'batch out of order',
      method: 'POST',
      path: '/api/reviews',
      headers: json,
      body: { answers },
    }
  }
}

/** Every answer a batch of either connection had applied. */
const applied = new Set<string>()

/**
 * A batch's results: how many, the most for one word, how many were recorded now, and how many
 * of those an earlier batch had recorded already. A batch sent again may record answers its
 * first sending left out (they did not fit then), never one it recorded.
 */
function batchResults(record: AttackRecord, { status, body }: Answered) {
  if (status !== 200) return
  const results = (body as { results: { id: string; descriptorId: number; status: string }[] })
    .results
  const perWord = new Map<number, number>()
  for (const r of results) perWord.set(r.descriptorId, (perWord.get(r.descriptorId) ?? 0) + 1)
  const now = results.filter((r) => r.status === 'applied').map((r) => r.id)
  record.results = results.length
  record.perWord = Math.max(0, ...perWord.values())
  record.applied = now.length
  record.appliedTwice = now.filter((id) => applied.has(id)).length
  for (const id of now) applied.add(id)
}

const reply = (message: AttackerReply) => process.send?.(message)
const pause = () => (gate = new Promise<void>((resolve) => (open = resolve)))
pause()
const connections =
  options.part === 'review batches'
    ? [connection(batches(), batchResults), connection(batches(), batchResults)]
    : [
        connection(rebound()),
        connection(rebound()),
        connection(rebound()),
        connection(signIns()),
        connection(signIns()),
        connection(signIns()),
      ]
process.on('message', async (message: AttackerMessage) => {
  if (message === 'resume') {
    gate = undefined
    open()
    reply('resumed')
  } else if (message === 'pause') {
    // Answered once every request sent is answered: none runs into the next idle window.
    const done = new Promise<void>((resolve) => (drained = resolve))
    pause()
    if (inFlight > 0) await done
    reply('paused')
  } else if (message === 'stop') {
    running = false
    open()
    await Promise.all(connections)
    // Gone once the records are sent: disconnected at once, a large message was lost.
    process.send?.({ records } satisfies AttackerReply, () => process.disconnect())
  }
})
