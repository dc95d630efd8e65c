import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../scripts/lib/ports.ts'
import { untilReady } from '../../scripts/lib/ready.ts'
import { spawn } from 'node:child_process'
import { root, stop, treeMemoryMiB, verdict } from '../lib.ts'
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

/**
 * DESIGN.md §7's "whole stack ≤ 1.2 GB", read as the memory the stack holds: PSS summed over the
 * process tree (docs/decisions.md, issue [12]: a sum of RSS counts Node's shared pages nine times).
 */
const MEMORY_BUDGET_MIB = Math.round((1.2 * 1e9) / 2 ** 20)
/** DESIGN.md §7: `npm start` ready after install (cold) and again (warm), in seconds. */
const COLD_BUDGET_S = 30
const WARM_BUDGET_S = 10

/** A process that holds `mib` MiB of its own (every page written): the reading must show it. */
async function plantedMemoryMiB(mib: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const b = Buffer.alloc(${mib} * 2 ** 20, 1); process.send('held'); setInterval(() => b[0]++, 1000)`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  )
  try {
    await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('exit', reject)
    })
    return child.pid ? (await treeMemoryMiB(child.pid)).pss : 0
  } finally {
    child.kill('SIGKILL')
  }
}

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
    // Within budget: ready in time and the stack's memory within its 1.2 GB.
    const within = (start: typeof cold, seconds: number) =>
      start.seconds <= seconds && start.memory.pss <= MEMORY_BUDGET_MIB
    const yes = (ok: boolean) => (ok ? 'yes' : '**no**')
    const planted = 256
    const read = await plantedMemoryMiB(planted)
    return {
      markdown: [
        '## Start-up',
        '',
        '`npm start` on the embedded defaults; cold = first start of a fresh clone (the frontend built by the launcher, a new data directory), warm = the next start. Memory of every process of the tree, npm included, 2 s after ready, read from `/proc/<pid>/smaps_rollup`: PSS summed is what the stack holds (a page the nine processes share, Node’s own code, counts once); RSS summed counts it in every process and stands beside it as an upper bound.',
        '',
        '| start | ready after | PSS summed | within budget (time and memory) | RSS summed |',
        '|---|---:|---:|---|---:|',
        `| cold (fresh clone: build + new data directory) | ${cold.seconds.toFixed(1)} s | ${cold.memory.pss} MiB | ${yes(within(cold, COLD_BUDGET_S))} | ${cold.memory.rss} MiB |`,
        `| warm (same data directory) | ${warm.seconds.toFixed(1)} s | ${warm.memory.pss} MiB | ${yes(within(warm, WARM_BUDGET_S))} | ${warm.memory.rss} MiB |`,
        '',
        `Budgets: cold ≤ 30 s, warm ≤ 10 s, whole stack ≤ 1.2 GB (${MEMORY_BUDGET_MIB.toLocaleString('en')} MiB) held, as PSS (DESIGN.md §7 says RSS; docs/decisions.md, issue [12], says why the sum of PSS is the reading).`,
        '',
        `Self-check: a process that writes ${planted} MiB of its own reads ${read} MiB PSS (must read ≥ ${planted}): ${read >= planted ? 'yes' : '**no**'}.`,
        '',
        verdict(
          `DESIGN.md §7, \`npm start\` ready cold ≤ ${COLD_BUDGET_S} s and warm ≤ ${WARM_BUDGET_S} s, whole stack ≤ 1.2 GB held`,
          [
            {
              what: `cold ready after ${cold.seconds.toFixed(1)} s (≤ ${COLD_BUDGET_S} s)`,
              ok: cold.seconds <= COLD_BUDGET_S,
            },
            {
              what: `warm ready after ${warm.seconds.toFixed(1)} s (≤ ${WARM_BUDGET_S} s)`,
              ok: warm.seconds <= WARM_BUDGET_S,
            },
            ...[cold, warm].map((start, i) => ({
              what: `${i === 0 ? 'cold' : 'warm'} stack holds ${start.memory.pss} MiB PSS (≤ ${MEMORY_BUDGET_MIB} MiB)`,
              ok: start.memory.pss <= MEMORY_BUDGET_MIB,
            })),
            {
              what: `a process holding ${planted} MiB read ${read} MiB`,
              ok: read >= planted,
              selfCheck: true,
            },
          ],
        ),
        '',
      ].join('\n'),
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
