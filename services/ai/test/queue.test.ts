// Speech through BullMQ on a real Redis, with real worker processes (src/worker.ts).
// Skipped without REDIS_URL; the AOF test starts a Redis of its own.
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { Queue } from 'bullmq'
import { createRedis } from '@crv/kit'
import { buildTestService, testRedisUrl } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import { createStorage } from '@crv/kit/storage'
import aiApp from '../src/app.ts'
import { loadAiConfig } from '../src/config.ts'
import { EspeakWasmEngine } from '../src/engines/espeak-wasm.ts'
import { jobOptions, SPEECH_JOB, startSpeechWorker } from '../src/speech/queue.ts'
import { processSpeechJob, readObject, speechKey } from '../src/speech/speech.ts'
import { AUDIBLE_RMS, decodeMp3, standIn, waitFor } from './helpers.ts'

const redisUrl = testRedisUrl()
const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const queueName = () => `test-speech-${randomUUID().slice(0, 8)}`

const workers: ChildProcess[] = []

/** A real worker process; resolves once it is connected and taking jobs. */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['src/worker.ts'], {
    cwd: serviceDir,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  workers.push(child)
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve())
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before ready`)))
  })
  return child
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })

afterEach(async () => {
  for (const child of workers.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited(child)
    }
  }
})

async function obliterate(url: string, name: string) {
  const connection = createRedis(url, { blocking: true })
  const queue = new Queue(name, { connection })
  await queue.obliterate({ force: true }).catch(() => {})
  await queue.close()
  connection.disconnect()
}

describe('the worker entry point', () => {
  it('refuses to start without REDIS_URL, as a configuration error', async () => {
    const result = spawnSync(process.execPath, ['src/worker.ts'], {
      cwd: serviceDir,
      env: { ...process.env, REDIS_URL: '' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(78)
    expect(result.stderr).toMatch(/REDIS_URL/)
  })
})

describe.skipIf(!redisUrl)('speech queue on Redis', () => {
  const url = redisUrl ?? ''

  it('keeps waiting jobs in the list that the Kubernetes autoscaler (KEDA) reads', async () => {
    // deploy/kubernetes/base/ai-worker.yaml scales the workers on this list's length.
    const manifest = readFileSync(
      new URL('../../../deploy/kubernetes/base/ai-worker.yaml', import.meta.url),
      'utf8',
    )
    const listName = /listName: (\S+)/.exec(manifest)?.[1] ?? ''
    expect(listName).toBe(`bull:${loadAiConfig({}).SPEECH_QUEUE}:wait`)
    const name = queueName()
    const connection = createRedis(url, { blocking: true })
    const queue = new Queue(name, { connection, defaultJobOptions: jobOptions })
    try {
      await queue.add(SPEECH_JOB, { word: 'Stein', language: 'de' })
      await queue.add(SPEECH_JOB, { word: 'Wasser', language: 'de' })
      const key = listName.replace(`:${loadAiConfig({}).SPEECH_QUEUE}:`, `:${name}:`)
      expect(await connection.llen(key)).toBe(2)
    } finally {
      await queue.obliterate({ force: true })
      await queue.close()
      connection.disconnect()
    }
  })

  describe('with the default engine', () => {
    const name = queueName()
    let app: FastifyInstance
    let keys: TestKeys
    let dataDir: string
    beforeAll(async () => {
      const built = await buildTestService(aiApp, loadAiConfig, {
        REDIS_URL: url,
        SPEECH_QUEUE: name,
      })
      app = built.app
      keys = built.keys
      dataDir = built.config.DATA_DIR
    }, 60_000)
    afterAll(async () => {
      await app.close()
      await obliterate(url, name)
    })

    it('answers 503 "speech is busy, try again" when no worker takes the job in time', async () => {
      const impatient = await buildTestService(aiApp, loadAiConfig, {
        REDIS_URL: url,
        SPEECH_QUEUE: queueName(),
        SPEECH_TIMEOUT_MS: '300',
      })
      try {
        const res = await impatient.app.inject({
          method: 'POST',
          url: '/api/ai/speech',
          payload: { word: 'Stein', language: 'de' },
        })
        expect(res.statusCode).toBe(503)
        expect(res.json().error).toEqual({
          code: 'speech_busy',
          message: 'speech is busy, try again',
        })
      } finally {
        await impatient.app.close()
        await obliterate(url, impatient.config.SPEECH_QUEUE)
      }
    })

    it('runs a job on a worker process, then serves the word from the cache without a job', async () => {
      await startWorker({ REDIS_URL: url, SPEECH_QUEUE: name, DATA_DIR: dataDir })
      const admin = { authorization: `Bearer ${await keys.tokenFor('admin')}` }
      const status = async () =>
        (await app.inject({ url: '/api/ai/queue', headers: admin })).json<{
          mode: string
          completed: number
          workers: number
        }>()
      expect(await status()).toMatchObject({ mode: 'queue', workers: 1, completed: 0 })

      const first = await app.inject({
        method: 'POST',
        url: '/api/ai/speech',
        payload: { word: 'Wasser', language: 'de' },
      })
      expect(first.statusCode).toBe(200)
      expect(first.headers['x-speech-cache']).toBe('miss')
      const audio = await decodeMp3(first.rawPayload)
      expect(audio.seconds).toBeGreaterThan(0.2)
      expect(audio.rms).toBeGreaterThan(AUDIBLE_RMS)
      expect((await status()).completed).toBe(1)

      const again = await app.inject({
        method: 'POST',
        url: '/api/ai/speech',
        payload: { word: 'Wasser', language: 'de' },
      })
      expect(again.headers['x-speech-cache']).toBe('hit')
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true)
      expect((await status()).completed).toBe(1)
    }, 60_000)
  })

  describe('with a slow or failing cloud engine (a local stand-in)', () => {
    let server: { app: FastifyInstance; url: string }
    let clip: Buffer
    let mode: 'ok' | 'fail-first' | 'hold-first' | 'slow-first' = 'ok'
    let requests = 0
    let release: () => void = () => {}

    beforeAll(async () => {
      clip = await new EspeakWasmEngine({ kbps: 40, reading: (t) => t }).synthesize('stone', 'en')
      server = await standIn((s) => {
        s.post('/v1/audio/speech', async (request, reply) => {
          // Only the words under test count; the gestalt clips made at start pass through.
          const input = (request.body as { input: string }).input
          if (!input.startsWith('test ')) return reply.type('audio/mpeg').send(clip)
          requests += 1
          const first = requests === 1
          if (first && mode === 'fail-first') return reply.code(500).send({ error: 'busy' })
          if (first && mode === 'hold-first') await new Promise<void>((r) => (release = r))
          if (first && mode === 'slow-first') await new Promise((r) => setTimeout(r, 1_500))
          return reply.type('audio/mpeg').send(clip)
        })
      })
    })
    afterAll(async () => {
      release()
      await server.app.close()
    })

    async function setup(lockMs = '30000') {
      requests = 0
      const name = queueName()
      const env = {
        REDIS_URL: url,
        SPEECH_QUEUE: name,
        TTS_ENGINE: 'openai',
        OPENAI_TTS_URL: server.url,
        SPEECH_TIMEOUT_MS: '30000',
        SPEECH_JOB_LOCK_MS: lockMs,
      }
      const built = await buildTestService(aiApp, loadAiConfig, env)
      const workerEnv = { ...env, DATA_DIR: built.config.DATA_DIR }
      return {
        app: built.app,
        workerEnv,
        speak: (word: string) =>
          built.app.inject({
            method: 'POST',
            url: '/api/ai/speech',
            payload: { word: `test ${word}`, language: 'en' },
          }),
        done: async () => {
          await built.app.close()
          await obliterate(url, name)
        },
      }
    }

    it('retries a failed job with backoff', async () => {
      mode = 'fail-first'
      const t = await setup()
      try {
        await startWorker(t.workerEnv)
        const res = await t.speak('pebble')
        expect(res.statusCode).toBe(200)
        expect(res.rawPayload.equals(clip)).toBe(true)
        expect(requests).toBe(2)
      } finally {
        await t.done()
      }
    }, 60_000)

    it('completes the job of a worker killed mid-job on another worker', async () => {
      mode = 'hold-first'
      const t = await setup('1000')
      try {
        const doomed = await startWorker(t.workerEnv)
        const pending = t.speak('boulder')
        // The first worker is inside the job: the speech server has its request.
        await waitFor(() => requests === 1, 20_000, 'the first worker to call the engine')
        await startWorker(t.workerEnv)
        doomed.kill('SIGKILL')
        await exited(doomed)
        const res = await pending
        expect(res.statusCode).toBe(200)
        expect(res.rawPayload.equals(clip)).toBe(true)
        expect(requests).toBe(2)
      } finally {
        release()
        await t.done()
      }
    }, 60_000)

    it('lets a worker finish its current job on SIGTERM before it exits', async () => {
      mode = 'slow-first'
      const t = await setup()
      try {
        const worker = await startWorker(t.workerEnv)
        const pending = t.speak('gravel')
        await waitFor(() => requests === 1, 20_000, 'the worker to call the engine')
        worker.kill('SIGTERM')
        // No other worker runs: the answer can only come from the one that was told to stop.
        const res = await pending
        expect(res.statusCode).toBe(200)
        expect(await exited(worker)).toBe(0)
        expect(requests).toBe(1)
      } finally {
        await t.done()
      }
    }, 60_000)
  })
})

describe.skipIf(spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0)(
  'a Redis with AOF restarted after a crash',
  () => {
    let dir: string
    let port: number
    let redis: ChildProcess | undefined

    const freePort = () =>
      new Promise<number>((resolve) => {
        const server = createServer()
        server.listen(0, '127.0.0.1', () => {
          const address = server.address()
          server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
        })
      })

    async function startRedis() {
      // A Redis of this test's own: the machine's shared one is never restarted.
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--appendonly',
          'yes',
          '--appendfsync',
          'always',
          '--save',
          '',
          '--protected-mode',
          'no',
        ],
        { stdio: 'ignore' },
      )
      redis = child
      const probe = createRedis(`redis://127.0.0.1:${port}`)
      probe.on('error', () => {})
      await waitFor(async () => (await probe.ping().catch(() => '')) === 'PONG', 10_000, 'redis')
      probe.disconnect()
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'crv-aof-'))
      port = await freePort()
    })
    afterAll(async () => {
      redis?.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    })

    it('loses no queued job', async () => {
      await startRedis()
      const url = `redis://127.0.0.1:${port}`
      const name = queueName()
      const engine = new EspeakWasmEngine({ kbps: 40, reading: (t) => t })
      const storage = createStorage({ DATA_DIR: mkdtempSync(join(tmpdir(), 'crv-aof-data-')) })
      const words = Array.from({ length: 40 }, (_, i) => `stone number ${i}`)
      const jobs = words.map((text) => ({
        text,
        language: 'en' as const,
        key: speechKey(engine, 'en', text),
      }))

      const connection = createRedis(url, { blocking: true })
      connection.on('error', () => {})
      const queue = new Queue(name, { connection, defaultJobOptions: jobOptions })
      await queue.addBulk(jobs.map((data) => ({ name: SPEECH_JOB, data })))
      await queue.close()
      connection.disconnect()

      // A crash, not a shutdown: nothing gets a chance to save on the way down.
      const crashed = redis
      crashed?.kill('SIGKILL')
      if (crashed) await exited(crashed)
      await startRedis()

      const worker = startSpeechWorker({
        url,
        queueName: name,
        concurrency: 4,
        lockMs: 30_000,
        handle: (job) => processSpeechJob(engine, storage, job),
      })
      try {
        for (const job of jobs) {
          await waitFor(async () => (await storage.head(job.key)) !== null, 60_000, job.text)
        }
        const mp3 = await readObject(storage, jobs[0]?.key ?? '')
        expect((await decodeMp3(mp3 ?? Buffer.alloc(0))).seconds).toBeGreaterThan(0.2)
      } finally {
        await worker.close()
      }
    }, 120_000)
  },
)
