// Who may read the development SMS outbox (its codes sign anyone in, administrators included).
// docs/security.md ('The development SMS outbox') has the reasoning and what this leaves open.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { AuthConfig } from './config.ts'

/** The per-start key `npm start` prints and writes to DATA_DIR/dev-outbox-key. */
export const DEV_OUTBOX_KEY_HEADER = 'x-dev-outbox-key'

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Headers a proxy adds about itself (RFC 7239 Forwarded, RFC 9110 Via, nginx's X-Real-IP, and
 * the X-Forwarded-Port/-Server of http-proxy, Vite and Apache). X-Forwarded-For needs no place
 * here: it makes `request.ip` the address the proxy saw.
 */
const PROXY_MARKS = ['forwarded', 'via', 'x-real-ip', 'x-forwarded-port', 'x-forwarded-server']

export type DevOutboxCaller = Pick<FastifyRequest, 'headers' | 'ip' | 'host'>
type Access = Pick<AuthConfig, 'DEV_OUTBOX_KEY' | 'DEV_OUTBOX_ACCESS'>

/**
 * With the key, from anywhere: no proxy can add it. Without it (unless DEV_OUTBOX_ACCESS=key),
 * only a direct call from this machine: a loopback address, a loopback name in Host (and in the
 * gateway's X-Forwarded-Host: a rebound name reaches loopback too) and no proxy's mark.
 */
export function mayReadDevOutbox(request: DevOutboxCaller, config: Access): boolean {
  const key = request.headers[DEV_OUTBOX_KEY_HEADER]
  if (key !== undefined)
    return typeof key === 'string' && !!config.DEV_OUTBOX_KEY && sameKey(key, config.DEV_OUTBOX_KEY)
  if (config.DEV_OUTBOX_ACCESS === 'key') return false
  return (
    isLoopbackAddress(request.ip) &&
    isLoopbackHost(request.headers.host) &&
    isLoopbackHost(request.host) &&
    !PROXY_MARKS.some((name) => request.headers[name] !== undefined)
  )
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip
  return v4.startsWith('127.') || ip === '::1'
}

function isLoopbackHost(host: string | undefined): boolean {
  const name = /^(\[::1\]|[a-z0-9.]+)(?::\d{1,5})?$/i.exec(host ?? '')?.[1]
  return name !== undefined && LOOPBACK_HOSTNAMES.has(name.toLowerCase())
}

const digest = (text: string) => createHash('sha256').update(text).digest()
const sameKey = (given: string, key: string) => timingSafeEqual(digest(given), digest(key))
