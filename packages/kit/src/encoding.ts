import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
} from 'node:zlib'

/** The content codings a service sends prepared JSON in. */
export type ContentEncoding = 'br' | 'gzip'

/**
 * The first of `offered` (in the server's order of preference) that an Accept-Encoding header
 * accepts, or undefined for the identity coding. A coding with q=0 is refused; `*` stands for any
 * coding the header does not name (RFC 9110 §12.5.3).
 */
export function acceptedEncoding(
  header: string | string[] | undefined,
  offered: readonly ContentEncoding[],
): ContentEncoding | undefined {
  if (!header) return undefined
  const weights = new Map<string, number>()
  for (const item of String(header).split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase())
    if (!name) continue
    const q = params.find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const any = weights.get('*')
  return offered.find((coding) => (weights.get(coding) ?? any ?? 0) > 0)
}

/**
 * Compresses a prepared body. `effort` trades CPU for size: 'once' for bodies cached and sent
 * many times (brotli 9, gzip 6), 'each' for bodies made per request (brotli 4, gzip 1).
 */
export function encodeBody(body: Buffer, coding: ContentEncoding, effort: 'once' | 'each'): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: effort === 'once' ? 6 : 1 })
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === 'once' ? 9 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })
}

/** The bytes of a body sent with Content-Encoding `coding` (for checks of what was sent). */
export function decodeBody(body: Buffer, coding: string): Buffer {
  if (coding === 'br') return brotliDecompressSync(body)
  if (coding === 'gzip') return gunzipSync(body)
  return body
}
