import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue } from 'bullmq'
import { createRedis } from '@crv/kit'
import { freePort } from '../../scripts/lib/ports.ts'
import { load, ms, percentile, root, startProcess, stop } from '../lib.ts'
import type { Section } from '../lib.ts'
import { startApp } from './app.ts'

const LIMITS = {
  AI_RATE_LIMIT_ANONYMOUS: '100000000',
  AI_RATE_LIMIT_IP: '100000000',
  AI_RATE_LIMIT_USER: '100000000',
}

/**
 * Speech (DESIGN.md §7): one word uncached and cached through the gateway on the embedded
 * default (in-process synthesis), and queue throughput with 1 and 2 worker processes.
 */
export async function speech(): Promise<Section> {
  const lines = ['## Speech', '']
  const app = await startApp(LIMITS)
  try {
    const speak = async (word: string) => {
      const started = performance.now()
      const res = await fetch(`${app.base}/api/ai/speech`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ word, language: 'en' }),
      })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`speech answered ${res.status}`)
      return { ms: performance.now() - started, cache: res.headers.get('x-speech-cache') }
    }
    // Warm-up: the synthesiser and encoder of the ai process.
    for (let i = 0; i < 5; i++) await speak(`warm up ${i}`)
    const uncached: number[] = []
    for (let i = 0; i < 100; i++) {
      const { ms: t, cache } = await speak(`stone ${i} river`)
      if (cache !== 'miss') throw new Error('expected an uncached word')
      uncached.push(t)
    }
    uncached.sort((a, b) => a - b)
    await speak('water')
    const cached = await load(`${app.base}/api/ai/speech`, {
      method: 'POST',
      body: JSON.stringify({ word: 'water', language: 'en' }),
      headers: { 'content-type': 'application/json' },
      seconds: 10,
      connections: 10,
    })
    const sequentialCached: number[] = []
    for (let i = 0; i < 200; i++) sequentialCached.push((await speak('water')).ms)
    sequentialCached.sort((a, b) => a - b)
    lines.push(
      'The whole app through the gateway, embedded default (eSpeak NG in-process, MP3 40 kbps mono 22.05 kHz, objects on disk).',
      '',
      '| measure | budget | p50 | p99 | notes |',
      '|---|---|---:|---:|---|',
      `| one word, uncached (100 different words, one at a time) | p50 ≤ 150 ms | ${ms(percentile(uncached, 50))} | ${ms(percentile(uncached, 99))} | synthesis + MP3 encoding + store |`,
      `| one word, cached, one at a time | ≤ 10 ms | ${ms(percentile(sequentialCached, 50))} | ${ms(percentile(sequentialCached, 99))} | 200 requests |`,
      `| one word, cached, 10 connections for 10 s | ≤ 10 ms | ${ms(cached.p50)} | ${ms(cached.p99)} | ${Math.round(cached.requestsPerSecond)} requests/s, ${cached.errors + cached.non2xx} errors |`,
      '',
    )
  } finally {
    await app.close()
  }
  lines.push(...(await queueThroughput()), '')
  return { markdown: lines.join('\n') }
}

/** Jobs/s of 1 and 2 worker processes (1 job at a time each) draining a queue of new words. */
async function queueThroughput(): Promise<string[]> {
  let redisUrl = process.env.REDIS_URL
  let ownRedis: ChildProcess | undefined
  if (!redisUrl) {
    if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
      return ['Queue throughput: skipped (no REDIS_URL and no redis-server installed).']
    }
    const port = await freePort()
    ownRedis = spawn(
      'redis-server',
      ['--port', String(port), '--save', '', '--bind', '127.0.0.1'],
      {
        stdio: 'ignore',
      },
    )
    redisUrl = `redis://127.0.0.1:${port}`
    await new Promise((r) => setTimeout(r, 500))
  }
  const rows: string[] = []
  let selfCheck = 'Self-check: not run.'
  const dataDir = await mkdtemp(join(tmpdir(), 'crv-bench-speech-'))
  try {
    const jobs = 200
    let single = 0
    for (const workers of [1, 2]) {
      const name = `bench-speech-${Date.now()}-${workers}`
      const connection = createRedis(redisUrl, { blocking: true })
      const queue = new Queue(name, { connection })
      const children: ChildProcess[] = []
      try {
        for (let i = 0; i < workers; i++) {
          const child = startProcess(
            ['src/worker.ts'],
            {
              REDIS_URL: redisUrl,
              SPEECH_QUEUE: name,
              DATA_DIR: dataDir,
              AI_WORKER_CONCURRENCY: '1',
            },
            join(root, 'services', 'ai'),
          )
          children.push(child)
          await new Promise<void>((resolve) => {
            child.stdout?.on('data', (d: Buffer) => {
              if (d.toString().includes('speech worker ready')) resolve()
            })
            setTimeout(resolve, 10_000)
          })
        }
        await queue.waitUntilReady()
        const started = performance.now()
        // The self-check rides along: a few jobs no engine can voice (an unknown language),
        // which must come out as failures, not as throughput.
        const planted = workers === 1 ? 5 : 0
        await queue.addBulk([
          ...Array.from({ length: jobs }, (_, i) => ({
            name: 'speak',
            data: {
              text: `pebble ${workers} ${i} shore`,
              language: 'en',
              key: `bench/${name}/${i}.mp3`,
            },
            opts: { removeOnComplete: false, removeOnFail: false },
          })),
          ...Array.from({ length: planted }, (_, i) => ({
            name: 'speak',
            data: { text: `planted ${i}`, language: 'xx', key: `bench/${name}/planted-${i}.mp3` },
            opts: { removeOnComplete: false, removeOnFail: false, attempts: 1 },
          })),
        ])
        let counts: Record<string, number> = {}
        for (;;) {
          counts = await queue.getJobCounts('completed', 'failed')
          if ((counts.completed ?? 0) + (counts.failed ?? 0) >= jobs + planted) break
          await new Promise((r) => setTimeout(r, 20))
        }
        const seconds = (performance.now() - started) / 1000
        const failed = counts.failed ?? 0
        // Only voiced words count as throughput; every failure is reported.
        const rate = (counts.completed ?? 0) / seconds
        if (workers === 1) single = rate
        const genuineFailures = failed - planted
        rows.push(
          `| ${workers} | ${jobs} | ${seconds.toFixed(2)} s | ${rate.toFixed(1)} | ${workers === 1 ? '1.00×' : `${(rate / single).toFixed(2)}×`} | ${genuineFailures}${genuineFailures > 0 ? ' **(failures)**' : ''} |`,
        )
        if (planted > 0) {
          selfCheck = `Self-check: ${planted} planted jobs in an unknown language → ${failed} failed in all (must be ≥ ${planted}): ${failed >= planted ? 'yes' : '**no**'}.`
        }
      } finally {
        await Promise.all(children.map((c) => stop(c)))
        await queue.obliterate({ force: true }).catch(() => {})
        await queue.close()
        connection.disconnect()
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
    ownRedis?.kill('SIGKILL')
  }
  return [
    `Queue throughput: ${process.env.REDIS_URL ? 'REDIS_URL' : 'a temporary redis-server'}, worker processes with one job at a time each, 200 new words (eSpeak NG in-process); budget: grows linearly with worker processes (on a 2-core box shared with Redis and the load generator, 2 is the ceiling).`,
    '',
    '| worker processes | jobs | time | voiced/s | vs 1 worker | failed |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    selfCheck,
  ]
}
