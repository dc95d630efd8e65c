// Who can reach the embedded database of `npm start` (issue [23] item 11). PGlite asks no
// password, so the only guard is who can reach it at all: the services, which run as the
// account that started the app, and no other account on the machine.
import { fork, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@crv/kit/db'

const root = fileURLToPath(new URL('../', import.meta.url))
const isRoot = process.getuid?.() === 0
const NOBODY = 65534

// What another account can do with the address the launcher hands the services: connect with
// the services' own client and read, and read the data directory's files.
const ATTACK = `
const pg = require('pg')
const fs = require('node:fs')
const client = new pg.Client({ connectionString: process.env.ATTACK_URL, connectionTimeoutMillis: 5000 })
const file = () => { try { fs.readFileSync(process.env.ATTACK_FILE); return 'read' } catch (e) { return e.code } }
client.connect()
  .then(() => client.query('SELECT count(*) AS n FROM pg_catalog.pg_tables'))
  .then(async (r) => { await client.end(); return 'read ' + r.rows[0].n + ' tables' })
  .catch((e) => e.code ?? e.message)
  .then((database) => console.log(JSON.stringify({ database, file: file() })))
`

describe('the embedded database of npm start', () => {
  let base: string
  let pgDir: string
  let socketDir: string
  let db: ChildProcess
  let url: string

  beforeAll(async () => {
    // Like a checkout's data directory: every account may look into the folders above it.
    base = await mkdtemp(join(tmpdir(), 'crv-embedded-access-'))
    await chmod(base, 0o755)
    pgDir = join(base, 'data', 'postgres')
    socketDir = await mkdtemp(join(tmpdir(), 'crv-pg-'))
    // As scripts/start.ts forks it.
    db = fork(join(root, 'scripts', 'embedded-postgres.ts'), [], {
      env: { ...process.env, PGLITE_DIR: pgDir, PGLITE_SOCKET_DIR: socketDir },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    url = await new Promise<string>((resolve, reject) => {
      db.on('message', (m: { ready?: boolean; url?: string }) => {
        if (m.ready && m.url) resolve(m.url)
      })
      db.once('exit', (code) => reject(new Error(`embedded database exited (code ${code})`)))
    })
  }, 60_000)

  afterAll(async () => {
    if (db && db.exitCode === null && db.signalCode === null) {
      const exited = new Promise((r) => db.once('exit', r))
      db.kill('SIGTERM')
      await exited
    }
    await rm(base, { recursive: true, force: true })
    await rm(socketDir, { recursive: true, force: true })
  })

  it('lets the services connect with the URL the launcher hands them', async () => {
    const pool = createPool({ url, max: 3 })
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          pool.query<{ n: number }>('SELECT $1::int AS n', [n]).then((r) => r.rows[0]?.n),
        ),
      )
      expect(answers).toEqual([1, 2, 3, 4, 5, 6])
    } finally {
      await pool.end()
    }
  })

  // Switching accounts needs root (as in CI); elsewhere the next test checks the same modes the
  // kernel checks.
  it.runIf(isRoot)(
    'refuses another account on this machine at that URL, and keeps the data files from it',
    async () => {
      const attacker = spawn(process.execPath, ['-e', ATTACK], {
        cwd: root,
        env: { PATH: process.env.PATH, ATTACK_URL: url, ATTACK_FILE: join(pgDir, 'PG_VERSION') },
        uid: NOBODY,
        gid: NOBODY,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      let err = ''
      attacker.stdout?.on('data', (c: Buffer) => (out += c.toString()))
      attacker.stderr?.on('data', (c: Buffer) => (err += c.toString()))
      await new Promise((r) => attacker.once('exit', r))
      expect(err).toBe('')
      expect(JSON.parse(out)).toEqual({ database: 'EACCES', file: 'EACCES' })
    },
  )

  it("keeps its socket and its data in directories only the owner's account can enter", () => {
    const host = decodeURIComponent(new URL(url).hostname)
    expect(host).toBe(socketDir)
    for (const dir of [socketDir, pgDir]) {
      const stat = statSync(dir)
      expect(stat.uid).toBe(process.getuid?.())
      expect((stat.mode & 0o777).toString(8), dir).toBe('700')
    }
  })

  // Another account would not need the URL for a TCP port: it could try them all.
  it.runIf(process.platform === 'linux')('listens on no TCP port', () => {
    const fdDir = `/proc/${db.pid}/fd`
    const inodes = new Set(
      readdirSync(fdDir)
        .map((fd) => /^socket:\[(\d+)\]$/.exec(readlinkSync(join(fdDir, fd)))?.[1])
        .filter((inode) => inode !== undefined),
    )
    const LISTEN = '0A'
    const listening = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
      readFileSync(table, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((f) => f[3] === LISTEN && inodes.has(f[9] ?? ''))
        .map((f) => f[1]),
    )
    expect(listening).toEqual([])
  })
})
