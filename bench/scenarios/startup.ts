import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/lib/ports.ts'
import { untilReady } from '../../scripts/lib/ready.ts'
import { spawn } from 'node:child_process'
import { root, stop, treeMemoryMiB } from '../lib.ts'
import type { Section } from '../lib.ts'

async function timeToReady(
  dataDir: string,
): Promise<{ seconds: number; memory: { rss: number; pss: number } }> {
  const port = await freePort()
  const started = performance.now()
  // Exactly what a user runs, npm's own process included.
  const app = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  try {
    await untilReady(app, 120_000)
    const seconds = (performance.now() - started) / 1000
    await new Promise((r) => setTimeout(r, 2_000))
    return { seconds, memory: app.pid ? await treeMemoryMiB(app.pid) : { rss: 0, pss: 0 } }
  } finally {
    await stop(app, 'SIGINT')
  }
}

/** DESIGN.md §7: whole stack RSS ≤ 1.2 GB. */
const RSS_BUDGET_MIB = Math.round((1.2 * 1e9) / 2 ** 20)

/**
 * `npm start` as a new user meets it: cold is a fresh clone's first start (no frontend build, a
 * new data directory: the launcher builds the frontend and creates the database); warm is the
 * next start on the same directory.
 */
export async function startup(): Promise<Section> {
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-bench-start-'))
  try {
    // The launcher rebuilds what is missing; the build it leaves is the same as the one removed.
    await rm(join(root, 'frontend', 'dist'), { recursive: true, force: true })
    const cold = await timeToReady(dataDir)
    const warm = await timeToReady(dataDir)
    const verdict = (rss: number) => (rss <= RSS_BUDGET_MIB ? 'yes' : '**no**')
    return {
      markdown: [
        '## Start-up',
        '',
        '`npm start` on the embedded defaults; cold = first start of a fresh clone (the frontend built by the launcher, a new data directory), warm = the next start. Memory of every process of the tree, npm included, 2 s after ready. DESIGN.md §7 budgets the whole stack’s RSS, summed as written; the PSS sum beside it counts pages the processes share (Node’s own code, mapped by all nine) once.',
        '',
        '| start | ready after | RSS summed | within RSS budget | PSS summed |',
        '|---|---:|---:|---|---:|',
        `| cold (fresh clone: build + new data directory) | ${cold.seconds.toFixed(1)} s | ${cold.memory.rss} MiB | ${verdict(cold.memory.rss)} | ${cold.memory.pss} MiB |`,
        `| warm (same data directory) | ${warm.seconds.toFixed(1)} s | ${warm.memory.rss} MiB | ${verdict(warm.memory.rss)} | ${warm.memory.pss} MiB |`,
        '',
        `Budgets: cold ≤ 30 s, warm ≤ 10 s, whole stack RSS ≤ 1.2 GB (${RSS_BUDGET_MIB.toLocaleString('en')} MiB).`,
        '',
      ].join('\n'),
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
