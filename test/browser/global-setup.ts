// Starts the app with `scripts/start.ts` on a free port and a fresh data directory (embedded
// defaults unless DATABASE_URL is set), and stops it after the run.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { freePort } from '../../scripts/lib/ports.ts'
import { untilReady } from '../../scripts/lib/ready.ts'
import { startTestProvider } from '../../services/auth/test/oidc-provider.ts'
import { adminPhones } from './accounts.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url))

export default async function setup(project: TestProject) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // A real OpenID Connect provider on this machine stands in for Google.
  const provider = await startTestProvider({
    clientId: 'crv-browser-tests',
    clientSecret: 'browser-tests-secret',
    redirectUri: `${base}/api/auth/oidc/callback`,
    accounts: {
      ada: {
        email: 'ada@example.test',
        email_verified: true,
        name: 'Ada Lovelace',
        given_name: 'Ada',
      },
    },
  })
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-browser-'))
  const app = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      ADMIN_PHONES: adminPhones.join(','),
      PUBLIC_URL: base,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'crv-browser-tests',
      OIDC_CLIENT_SECRET: 'browser-tests-secret',
      OIDC_PROVIDER_NAME: 'Test Provider',
      // Every browser test reaches the gateway from 127.0.0.1, so the whole suite is one client
      // to its per-client limit (600 API calls a minute): the practice journeys' API sessions
      // met a refusal once. The limiter itself is tested in gateway/test.
      RATE_LIMIT_MAX: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  await untilReady(app, 150_000)
  project.provide('baseUrl', base)
  const group = -(app.pid ?? 0)
  return async () => {
    await new Promise<void>((resolve) => {
      app.once('exit', () => resolve())
      process.kill(group, 'SIGINT')
      setTimeout(() => {
        try {
          process.kill(group, 'SIGKILL')
        } catch {
          // already gone
        }
        resolve()
      }, 15_000).unref()
    })
    await provider.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
