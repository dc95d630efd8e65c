import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const frontend = join(root, 'frontend')

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return latest
}

/** The build is stale when it is missing or any frontend source is newer than it. */
export function frontendIsStale(): boolean {
  let built: number
  try {
    // The route shells are written last (after the app and its service worker).
    built = statSync(join(frontend, 'dist', 'shells', 'en', 'index.html')).mtimeMs
  } catch {
    return true
  }
  const sources = [join(frontend, 'src'), join(frontend, 'public')]
  const files = ['index.html', 'vite.config.ts', 'package.json'].map((f) => join(frontend, f))
  const latest = Math.max(
    ...sources.map((d) => {
      try {
        return newest(d)
      } catch {
        return 0
      }
    }),
    ...files.map((f) => {
      try {
        return statSync(f).mtimeMs
      } catch {
        return 0
      }
    }),
  )
  return latest > built
}

export function buildFrontend(): void {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: frontend,
      stdio: 'inherit',
      // Always the production bundle, whatever NODE_ENV the caller runs with (development
      // React and Redux checks are for `npm run dev`).
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
  if (result.status !== 0) throw new Error('frontend build failed')
}
