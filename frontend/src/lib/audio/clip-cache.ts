import type { AudioBufferLike, AudioContextLike } from './web-audio.ts'

export type FetchClip = (url: string) => Promise<ArrayBuffer>

const fetchBytes: FetchClip = async (url) => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`)
  return response.arrayBuffer()
}

/**
 * Decoded clips by URL: each is fetched and decoded once, however often it plays. A clip that
 * failed to load is forgotten, so a later attempt fetches it again.
 */
export class ClipCache {
  private readonly clips = new Map<string, Promise<AudioBufferLike>>()
  private readonly context: AudioContextLike
  private readonly fetchClip: FetchClip

  constructor(context: AudioContextLike, fetchClip: FetchClip = fetchBytes) {
    this.context = context
    this.fetchClip = fetchClip
  }

  load(url: string): Promise<AudioBufferLike> {
    const known = this.clips.get(url)
    if (known) return known
    const loading = this.fetchClip(url).then((bytes) => this.context.decodeAudioData(bytes))
    this.clips.set(url, loading)
    loading.catch(() => {
      if (this.clips.get(url) === loading) this.clips.delete(url)
    })
    return loading
  }

  /** The decoded clip if it is ready now (the scheduler never waits on a promise). */
  has(url: string): boolean {
    return this.clips.has(url)
  }
}
