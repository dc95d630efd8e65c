import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/lib/ports.ts'
import { untilReady } from '../../scripts/lib/ready.ts'
import { root, stop } from '../lib.ts'

export interface RunningApp {
  base: string
  /** The app's data directory (its embedded database publishes its address under run/). */
  dataDir: string
  process: ChildProcess
  /** Signs a phone number in through the development SMS outbox. */
  signIn(phone: string): Promise<string>
  close(): Promise<void>
}

/** The whole app on its embedded defaults, as `npm start` runs it, on a fresh data directory. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-bench-app-'))
  const app = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      // As in production: contract checks of every response are a development aid.
      VALIDATE_RESPONSES: 'false',
      RATE_LIMIT_MAX: '100000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  await untilReady(app, 120_000)
  const base = `http://127.0.0.1:${port}`
  return {
    base,
    dataDir,
    process: app,
    async signIn(phone) {
      const post = (path: string, body: object) =>
        fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      await post('/api/auth/phone/start', { phone })
      const outbox = (await (
        await fetch(`${base}/api/auth/dev/sms-outbox?phone=${encodeURIComponent(phone)}`)
      ).json()) as { code: string }[]
      const verified = (await (
        await post('/api/auth/phone/verify', { phone, code: outbox.at(-1)?.code })
      ).json()) as { accessToken: string }
      return verified.accessToken
    },
    async close() {
      await stop(app, 'SIGINT')
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
