import { AppError } from '@crv/kit'

/** Below the gateway's upstream timeout (15 s by default), so the caller hears why. */
const SPEECH_TIMEOUT_MS = 12_000
const MAX_CLIP_BYTES = 5 * 1024 * 1024

export interface SpeechRequest {
  word: string
  /** The caller's own Authorization header: speech applies its per-user limits to them. */
  authorization: string | undefined
  /** The caller's address, so speech's per-IP limit counts the user, not this service. */
  forwardedFor?: string | undefined
}

const busy = () => new AppError('speech_busy', 503, 'speech is busy, try again')
const unavailable = () =>
  new AppError('speech_unavailable', 503, 'Speech is unavailable right now. Please try again.')
const failed = () => new AppError('speech_failed', 502, 'Failed to generate audio')

async function errorCodeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown } }
    return typeof body.error?.code === 'string' ? body.error.code : undefined
  } catch {
    return undefined
  }
}

/**
 * Voices a custom gestalt through the speech service (`POST /api/ai/speech`) and returns the
 * MP3. Its failures become errors the caller can act on: busy or down → 503, limited → 429.
 */
export async function synthesizeCustomWord(aiUrl: string, request: SpeechRequest): Promise<Buffer> {
  let response: Response
  try {
    response = await fetch(new URL('/api/ai/speech', aiUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'audio/mpeg',
        ...(request.authorization ? { authorization: request.authorization } : {}),
        ...(request.forwardedFor ? { 'x-forwarded-for': request.forwardedFor } : {}),
      },
      body: JSON.stringify({ word: request.word, language: 'en' }),
      signal: AbortSignal.timeout(SPEECH_TIMEOUT_MS),
    })
  } catch (err) {
    throw (err as Error).name === 'TimeoutError' ? busy() : unavailable()
  }
  if (!response.ok) {
    const code = await errorCodeOf(response)
    if (response.status === 429) {
      const retryAfter = response.headers.get('retry-after')
      throw new AppError(
        'rate_limited',
        429,
        'Too many requests. Please try again later',
        retryAfter ? { retryAfter: Number(retryAfter) } : undefined,
      )
    }
    if (code === 'speech_busy' || response.status === 504) throw busy()
    if (response.status === 502 || response.status === 503) throw unavailable()
    throw failed()
  }
  const type = response.headers.get('content-type') ?? ''
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (!type.startsWith('audio/mpeg') || declared > MAX_CLIP_BYTES) throw failed()
  let clip: Buffer
  try {
    clip = Buffer.from(await response.arrayBuffer())
  } catch (err) {
    throw (err as Error).name === 'TimeoutError' ? busy() : failed()
  }
  if (clip.length === 0 || clip.length > MAX_CLIP_BYTES) throw failed()
  return clip
}
