import { startApp as startWholeApp } from '../../test/kit/app.ts'
import type { RunningApp } from '../../test/kit/app.ts'

export type { RunningApp }

/**
 * The whole app on its embedded defaults, as `npm start` runs it, on a fresh data directory
 * (the test kit's startApp), with the settings of production where they cost time and limits
 * no measured load reaches.
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  return startWholeApp({
    // As in production: contract checks of every response are a development aid.
    VALIDATE_RESPONSES: 'false',
    RATE_LIMIT_MAX: '100000000',
    ...env,
  })
}
