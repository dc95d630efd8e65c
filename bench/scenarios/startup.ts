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

/** `npm start` from a fresh data directory (cold) and again on the same one (warm). */
export async function startup(): Promise<Section> {
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-bench-start-'))
  try {
    const cold = await timeToReady(dataDir)
    const warm = await timeToReady(dataDir)
    return {
      markdown: [
        '## Start-up',
        '',
        '`npm start` on the embedded defaults (frontend already built); memory of every process of the tree, npm included, 2 s after ready. The whole stack in memory is the PSS sum: each process’s RSS counts the pages it shares with the others (Node’s own code, mapped by all of them) again, so the RSS sum is an upper bound that counts those pages up to nine times.',
        '',
        '| start | ready after | whole stack (PSS summed) | RSS summed |',
        '|---|---:|---:|---:|',
        `| cold (new data directory) | ${cold.seconds.toFixed(1)} s | ${cold.memory.pss} MiB | ${cold.memory.rss} MiB |`,
        `| warm (same data directory) | ${warm.seconds.toFixed(1)} s | ${warm.memory.pss} MiB | ${warm.memory.rss} MiB |`,
        '',
        'Budgets: cold ≤ 30 s, warm ≤ 10 s, whole stack ≤ 1.2 GB (1,144 MiB).',
        '',
      ].join('\n'),
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
