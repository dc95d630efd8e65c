import { describe, expect, it } from 'vitest'
import { ClipCache } from './clip-cache.ts'
import { drawSequence, pickNextWord } from './pick.ts'
import {
  defaultStartLeadSeconds,
  minimumLeadSeconds,
  maxRetryDelaySeconds,
  PlaybackEngine,
  retryDelaySeconds,
  type EngineWord,
} from './playback-engine.ts'
import { delaySeconds, speeds } from './speeds.ts'
import type {
  AudioBufferLike,
  AudioBufferSourceNodeLike,
  AudioContextLike,
  AudioNodeLike,
  GainNodeLike,
} from './web-audio.ts'
import { clipOnsetSeconds } from './web-audio.ts'

const sampleRate = 48_000

/** A decoded clip of `duration` seconds whose sound starts `lead` seconds in. */
function fakeBuffer(duration: number, lead = 0): AudioBufferLike {
  const length = Math.round(duration * sampleRate)
  const data = new Float32Array(length)
  data.fill(0.5, Math.round(lead * sampleRate))
  return {
    duration,
    sampleRate,
    length,
    numberOfChannels: 1,
    getChannelData: () => data,
  }
}

class FakeNode implements AudioNodeLike {
  connected: AudioNodeLike[] = []
  connect(destination: AudioNodeLike) {
    this.connected.push(destination)
    return destination
  }
  disconnect() {
    this.connected = []
  }
}

class FakeSource extends FakeNode implements AudioBufferSourceNodeLike {
  buffer: AudioBufferLike | null = null
  onended: (() => void) | null = null
  startedAt: number | null = null
  stopped = false
  private readonly context: FakeContext
  constructor(context: FakeContext) {
    super()
    this.context = context
  }
  start(when: number) {
    if (this.context.failStarts > 0) {
      this.context.failStarts -= 1
      throw new Error('InvalidStateError')
    }
    this.startedAt = when
    this.context.started.push({ source: this, when, at: this.context.currentTime })
  }
  stop() {
    this.stopped = true
  }
}

/** The audio clock moves only when the test says so. */
class FakeContext implements AudioContextLike {
  currentTime = 0
  readonly sampleRate = sampleRate
  state = 'running'
  readonly destination = new FakeNode()
  started: { source: FakeSource; when: number; at: number }[] = []
  gains: { node: FakeNode & GainNodeLike; values: number[] }[] = []
  failStarts = 0
  decoded = 0
  resume = async () => {
    this.state = 'running'
  }
  createGain(): FakeNode & GainNodeLike {
    const values: number[] = []
    const node = Object.assign(new FakeNode(), {
      gain: {
        value: 1,
        setValueAtTime: (value: number) => values.push(value),
      },
    })
    this.gains.push({ node, values })
    return node
  }
  createBufferSource() {
    return new FakeSource(this)
  }
  async decodeAudioData(bytes: ArrayBuffer) {
    this.decoded += 1
    const [duration = 0, lead = 0] = JSON.parse(new TextDecoder().decode(bytes)) as number[]
    return fakeBuffer(duration, lead)
  }
}

/** Clips by URL as the server would send them: here, JSON of [duration, lead-in]. */
function fakeServer(clips: Record<string, [number, number] | 'missing'>) {
  const fetched: string[] = []
  const fetchClip = async (url: string) => {
    fetched.push(url)
    const clip = clips[url]
    if (!clip || clip === 'missing') throw new Error('404 Not Found')
    return new TextEncoder().encode(JSON.stringify(clip)).buffer as ArrayBuffer
  }
  return { fetched, fetchClip }
}

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index]
  if (item === undefined) throw new Error(`nothing at ${index}`)
  return item
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

function harness(
  clips: Record<string, [number, number] | 'missing'>,
  options: { random?: () => number } = {},
) {
  const context = new FakeContext()
  const server = fakeServer(clips)
  let tick: (() => void) | null = null
  const heard: string[] = []
  const errors: string[] = []
  const playing: boolean[] = []
  const failing: boolean[] = []
  const engine = new PlaybackEngine({
    context,
    clips: new ClipCache(context, server.fetchClip),
    random: options.random ?? (() => 0),
    timers: {
      setInterval: (callback) => {
        tick = callback
        return 1
      },
      clearInterval: () => {
        tick = null
      },
    },
    onScheduled: (id) => heard.push(id),
    onClipError: (id) => errors.push(id),
    onPlayingChange: (value) => playing.push(value),
    onFailingChange: (value) => failing.push(value),
  })
  /** Moves the audio clock forward in scheduler ticks of 25 ms. */
  const run = async (seconds: number) => {
    const end = context.currentTime + seconds
    while (context.currentTime < end - 1e-9) {
      context.currentTime = Math.min(end, context.currentTime + 0.025)
      tick?.()
      await flush()
    }
  }
  return {
    context,
    server,
    engine,
    heard,
    errors,
    playing,
    failing,
    clips,
    run,
    ticking: () => tick !== null,
  }
}

const word = (id: string, probabilityLevel = 1): EngineWord => ({
  id,
  url: `/api/audio/${id}`,
  probabilityLevel,
})

describe('the playback engine', () => {
  it('starts each clip exactly at the end of the previous one at 0 ms, before it ends', async () => {
    const h = harness({ '/api/audio/land': [0.4, 0], '/api/audio/space': [0.3, 0] })
    h.engine.play({ mode: 'normal', words: [word('land'), word('space')], speed: 'instantFast' })
    await flush()
    await h.run(2)
    const starts = h.context.started
    expect(starts.length).toBeGreaterThan(4)
    // The first one too is handed over before it is due (a start in the past plays late).
    expect(nth(starts, 0).when - nth(starts, 0).at).toBeCloseTo(defaultStartLeadSeconds, 9)
    for (let i = 1; i < starts.length; i += 1) {
      const previous = nth(starts, i - 1)
      const current = nth(starts, i)
      expect(current.when).toBeCloseTo(previous.when + (previous.source.buffer?.duration ?? 0), 9)
      // Handed to the audio thread while the previous clip was still playing.
      expect(current.at).toBeLessThan(current.when)
    }
  })

  it('waits the speed delay after each clip and follows a speed change', async () => {
    const h = harness({ '/api/audio/land': [0.5, 0], '/api/audio/man': [0.5, 0] })
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'medium' })
    await flush()
    await h.run(2.1)
    const started = h.context.started
    expect(nth(started, 1).when - nth(started, 0).when).toBeCloseTo(0.5 + 1.5, 9)
    h.engine.setSpeed('veryFast')
    await h.run(3)
    expect(nth(started, 3).when - nth(started, 2).when).toBeCloseTo(0.5 + 0.5, 9)
  })

  it('draws a new pause between 0 and 5 s for every gap at the random speed', () => {
    expect(delaySeconds('random', () => 0)).toBe(0)
    expect(delaySeconds('random', () => 0.5)).toBe(2.5)
    expect(delaySeconds('random', () => 0.999999)).toBeCloseTo(5, 3)
    const draws = [0.1, 0.9, 0.3]
    let i = 0
    const random = () => draws[i++ % draws.length] ?? 0
    expect([random, random, random].map((r) => delaySeconds('random', r))).toEqual([0.5, 4.5, 1.5])
  })

  it('fetches and decodes each clip once however often it plays', async () => {
    const h = harness({ '/api/audio/land': [0.2, 0], '/api/audio/man': [0.2, 0] })
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'instantFast' })
    await flush()
    await h.run(3)
    expect(h.heard.length).toBeGreaterThan(10)
    expect(h.server.fetched.sort()).toEqual(['/api/audio/land', '/api/audio/man'])
    expect(h.context.decoded).toBe(2)
  })

  it('never repeats the word just heard while others are selected', async () => {
    let n = 0
    const h = harness(
      {
        '/api/audio/land': [0.1, 0],
        '/api/audio/man': [0.1, 0],
        '/api/audio/space': [0.1, 0],
      },
      { random: () => (n++ * 0.37) % 1 },
    )
    h.engine.play({
      mode: 'normal',
      words: [word('land'), word('man', 3), word('space')],
      speed: 'instantFast',
    })
    await flush()
    await h.run(5)
    expect(h.heard.length).toBeGreaterThan(20)
    h.heard.forEach((id, i) => {
      if (i > 0) expect(id).not.toBe(h.heard[i - 1])
    })
    expect(new Set(h.heard)).toEqual(new Set(['land', 'man', 'space']))
  })

  it('skips a clip that fails to load and tries the next one 500 ms later', async () => {
    const h = harness({ '/api/audio/land': 'missing', '/api/audio/man': [0.3, 0] })
    // random 0 picks land first, then man (land is left out as the one just tried).
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'medium' })
    await flush()
    await h.run(3)
    expect(h.errors[0]).toBe('land')
    expect(h.heard).toEqual(['man', 'man'])
    const first = defaultStartLeadSeconds + retryDelaySeconds
    expect(h.context.started[0]?.when).toBeCloseTo(first, 9)
    // land was due after man and the pause (0.3 + 1.5 s); man follows 500 ms later.
    expect(h.context.started[1]?.when).toBeCloseTo(first + 0.3 + 1.5 + retryDelaySeconds, 9)
  })

  it('waits in real time when every clip fails: a few requests a second, then fewer', async () => {
    // The server is down: with two words, retries once fetched at once and storm-ed.
    const h = harness({ '/api/audio/land': 'missing', '/api/audio/space': 'missing' })
    h.engine.play({ mode: 'normal', words: [word('land'), word('space')], speed: 'medium' })
    await flush()
    await h.run(2)
    expect(h.server.fetched.length).toBeLessThanOrEqual(2 * 2 + 2)
    const afterTwo = h.server.fetched.length
    await h.run(20)
    // Backed off to one try per maxRetryDelaySeconds: about 5 in 20 s.
    expect(h.server.fetched.length - afterTwo).toBeLessThanOrEqual(20 / maxRetryDelaySeconds + 1)
    expect(h.server.fetched.length - afterTwo).toBeGreaterThanOrEqual(3)
    expect(h.failing).toEqual([true])
    expect(h.engine.playing).toBe(true)
  })

  it('plays again promptly, on time, once the clips load again', async () => {
    const h = harness({ '/api/audio/land': 'missing', '/api/audio/space': 'missing' })
    h.engine.play({ mode: 'normal', words: [word('land'), word('space')], speed: 'medium' })
    await flush()
    await h.run(30)
    h.clips['/api/audio/land'] = [0.3, 0]
    h.clips['/api/audio/space'] = [0.3, 0]
    const back = h.context.currentTime
    await h.run(maxRetryDelaySeconds + 1)
    const first = h.context.started[0]
    expect(first).toBeDefined()
    // Not pushed far into the future by the failures before: within one back-off of the return.
    expect(first?.when).toBeLessThanOrEqual(back + maxRetryDelaySeconds + retryDelaySeconds)
    expect(h.failing).toEqual([true, false])
  })

  it('skips a clip that fails to start and tries the next one 500 ms later', async () => {
    const h = harness({ '/api/audio/land': [0.3, 0], '/api/audio/man': [0.3, 0] })
    h.context.failStarts = 1
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'medium' })
    await flush()
    await h.run(0.7)
    expect(h.errors).toEqual(['land'])
    expect(h.heard).toEqual(['man'])
    expect(h.context.started[0]?.when).toBeCloseTo(defaultStartLeadSeconds + retryDelaySeconds, 2)
  })

  it('plays a joined sequence once, without pauses, then stops by itself', async () => {
    const h = harness({
      '/api/audio/land': [0.3, 0],
      '/api/audio/man': [0.4, 0],
      '/api/audio/space': [0.2, 0],
    })
    h.engine.play({ mode: 'joined', sequence: [word('space'), word('land'), word('man')] })
    await flush()
    await h.run(2)
    expect(h.heard).toEqual(['space', 'land', 'man'])
    const [a, b, c] = [0, 1, 2].map((i) => nth(h.context.started, i).when)
    expect(b).toBeCloseTo((a ?? 0) + 0.2, 9)
    expect(c).toBeCloseTo((b ?? 0) + 0.3, 9)
    expect(h.playing).toEqual([true, false])
    expect(h.engine.playing).toBe(false)
    expect(h.ticking()).toBe(false)
  })

  it('decodes every clip of the plan before the first one starts', async () => {
    const context = new FakeContext()
    const release: (() => void)[] = []
    const slowFetch = (url: string) =>
      new Promise<ArrayBuffer>((resolve) => {
        release.push(() =>
          resolve(new TextEncoder().encode(JSON.stringify([0.2, 0])).buffer as ArrayBuffer),
        )
        void url
      })
    let tick: (() => void) | null = null
    const engine = new PlaybackEngine({
      context,
      clips: new ClipCache(context, slowFetch),
      timers: {
        setInterval: (callback) => {
          tick = callback
          return 1
        },
        clearInterval: () => {
          tick = null
        },
      },
    })
    engine.play({ mode: 'joined', sequence: [word('land'), word('man'), word('space')] })
    expect(release).toHaveLength(3)
    nth(release, 0)()
    await flush()
    expect(context.started).toHaveLength(0)
    expect(tick).toBeNull()
    nth(release, 1)()
    nth(release, 2)()
    await flush()
    await flush()
    const lead = defaultStartLeadSeconds
    expect(context.started.map((s) => s.when)).toEqual([lead, lead + 0.2, lead + 0.2 + 0.2])
  })

  it('starts the first clip the lead after the press, whatever the press did before the clips were ready', async () => {
    const h = harness({ '/api/audio/land': [0.2, 0] })
    h.engine.play({ mode: 'normal', words: [word('land')], speed: 'medium' })
    // The press's own work (the page showing it plays) moves the clock on before the start.
    h.context.currentTime = 0.03
    await flush()
    expect(nth(h.context.started, 0).when).toBeCloseTo(defaultStartLeadSeconds, 9)

    // Too little of the lead left (a first press fetches its clips): the lead from now.
    const late = harness({ '/api/audio/land': [0.2, 0] })
    late.engine.play({ mode: 'normal', words: [word('land')], speed: 'medium' })
    late.context.currentTime = defaultStartLeadSeconds - minimumLeadSeconds + 0.01
    await flush()
    expect(nth(late.context.started, 0).when).toBeCloseTo(
      late.context.currentTime + defaultStartLeadSeconds,
      9,
    )
  })

  it('stops every clip already handed to the audio thread', async () => {
    const h = harness({ '/api/audio/land': [0.1, 0], '/api/audio/man': [0.1, 0] })
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'instantFast' })
    await flush()
    await h.run(0.05)
    const pending = h.context.started.filter((s) => s.when + 0.1 > h.context.currentTime)
    expect(pending.length).toBeGreaterThan(0)
    h.engine.stop()
    expect(pending.every((s) => s.source.stopped)).toBe(true)
    expect(h.playing).toEqual([true, false])
    const count = h.context.started.length
    await h.run(1)
    expect(h.context.started.length).toBe(count)
  })

  it('starts a clip whose time passed in a stall a lead ahead of the clock, not in the past', async () => {
    const h = harness({ '/api/audio/land': [0.3, 0], '/api/audio/man': [0.3, 0] })
    h.engine.play({ mode: 'normal', words: [word('land'), word('man')], speed: 'medium' })
    await flush()
    await h.run(0.05)
    expect(h.context.started).toHaveLength(1)
    // The page stalls: the next clip (due at 0.1 + 0.3 + 1.5 s) is not handed over in time.
    h.context.currentTime = 3
    await h.run(0.025)
    const late = nth(h.context.started, 1)
    expect(late.at).toBeCloseTo(3.025, 9)
    expect(late.when).toBeCloseTo(3.025 + defaultStartLeadSeconds, 9)
  })

  it('sets the volume through its gain stage', () => {
    const h = harness({})
    h.engine.setVolume(30)
    const gain = nth(h.context.gains, 0)
    expect(gain.node.gain.value).toBeCloseTo(0.3)
    expect(gain.values.at(-1)).toBeCloseTo(0.3)
    h.engine.setVolume(150)
    expect(gain.node.gain.value).toBe(1)
    expect(gain.node.connected).toContain(h.context.destination)
  })
})

describe('choosing words', () => {
  const words = [word('a', 1), word('b', 2), word('c', 3)]

  it('weighs each word by its frequency level', () => {
    // Pool without the current word 'a': b, b, c, c, c.
    const at = (r: number) => pickNextWord(words, 'a', () => r)?.id
    expect([0, 0.2, 0.4, 0.6, 0.8].map(at)).toEqual(['b', 'b', 'c', 'c', 'c'])
    // Nothing heard yet: a, b, b, c, c, c.
    const first = (r: number) => pickNextWord(words, null, () => r)?.id
    expect([0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6].map(first)).toEqual([
      'a',
      'b',
      'b',
      'c',
      'c',
      'c',
    ])
  })

  it('repeats the only selected word and picks nothing from nothing', () => {
    expect(pickNextWord([word('a')], 'a', () => 0.5)?.id).toBe('a')
    expect(pickNextWord([], null)).toBeNull()
  })

  it('draws a joined sequence of different words', () => {
    const drawn = drawSequence(['land', 'man', 'space', 'energy'], 3, () => 0.5)
    expect(drawn).toHaveLength(3)
    expect(new Set(drawn).size).toBe(3)
    expect(drawSequence(['land'], 3)).toEqual(['land'])
  })
})

describe('speeds and onsets', () => {
  it('offers every speed of the spec with its delay', () => {
    expect(speeds.map((s) => [s.key, s.delayMs])).toEqual([
      ['verySlow', 5000],
      ['slow', 3000],
      ['medium', 1500],
      ['fast', 1000],
      ['veryFast', 500],
      ['ultraFast', 200],
      ['extremeFast', 100],
      ['instantFast', 0],
      ['random', null],
    ])
    expect(speeds.find((s) => s.key === 'verySlow')?.label).toBe('5s Slowest')
    expect(speeds.find((s) => s.key === 'veryFast')?.label).toBe('Fast+')
  })

  it('finds where a clip sound starts', () => {
    expect(clipOnsetSeconds(fakeBuffer(1, 0.25))).toBeCloseTo(0.25, 4)
    expect(clipOnsetSeconds(fakeBuffer(1, 0))).toBe(0)
  })
})
