import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError, notFound } from '@crv/kit'
import type { ObjectStorage } from '@crv/kit/storage'

export type ByteRange = { start: number; end: number }

/**
 * Reads a `Range` header against a file of `size` bytes (RFC 9110 §14). Only single ranges are
 * served; a header that is malformed or asks for several ranges is ignored (the whole file is
 * sent, as the RFC allows). `unsatisfiable` when the range lies outside the file.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Number(last)
  if (last !== '' && end < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end: Math.min(end, size - 1) }
}

const weak = (tag: string) => tag.trim().replace(/^W\//, '')

/** `If-None-Match` against the object's ETag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => weak(tag) === weak(etag))
}

/**
 * Sends a stored object with its ETag and caching policy, answering conditional (304) and
 * single-range (206, 416) requests.
 */
export async function sendObject(
  storage: ObjectStorage,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  options: { cacheControl: string; missing: string },
): Promise<FastifyReply> {
  const info = await storage.head(key)
  if (!info) throw notFound(options.missing)
  reply
    .header('etag', info.etag)
    .header('cache-control', options.cacheControl)
    .header('accept-ranges', 'bytes')
    .header('last-modified', info.lastModified.toUTCString())
  if (etagMatches(request.headers['if-none-match'], info.etag)) return reply.code(304).send()
  const range = parseRange(request.headers.range, info.size)
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${info.size}`)
    throw new AppError(
      'range_not_satisfiable',
      416,
      `The requested range lies outside the file (${info.size} bytes)`,
    )
  }
  const object = await storage.get(key, range ?? undefined)
  if (!object) throw notFound(options.missing)
  reply.type(info.contentType)
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', range.end - range.start + 1)
  } else {
    reply.header('content-length', info.size)
  }
  return reply.send(object.body)
}
