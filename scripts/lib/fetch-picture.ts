// Fetching a picture named by URL in an import manifest: only `npm run targets:import` does it,
// never a service (docs/security.md, "Import URLs"). Even so a manifest is a file from someone
// else, so the fetch is bounded: http and https only, no addresses of this machine or of a
// private network (each address checked after the name is resolved, and the connection made to
// that checked address, so a name cannot be re-pointed in between; every redirect checked
// again), a byte limit while reading, and a timeout for the whole fetch.
import { lookup } from 'node:dns'
import type { LookupAddress, LookupOptions } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP } from 'node:net'
import { AppError } from '@crv/kit'

export interface FetchLimits {
  maxBytes: number
  timeoutMs?: number
  maxRedirects?: number
  /** Allow loopback and private addresses (a collection on the operator's own network). */
  allowPrivateNetwork?: boolean
}

/** Addresses that are not the public internet (IANA special-purpose registries). */
const PRIVATE = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6')

/**
 * Whether an address is not on the public internet. An IPv4-mapped IPv6 address is checked as
 * its IPv4 address (BlockList does so by itself).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

const failed = (url: string, why: string) =>
  new AppError(
    'image_fetch_failed',
    400,
    `The picture could not be fetched from ${url.slice(0, 300)}: ${why}.`,
  )

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** dns.lookup that refuses a name with any private address among its answers. */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    const bad = addresses.find((a) => isPrivateAddress(a.address))
    if (bad) {
      const refusal = Object.assign(
        new Error(`${hostname} is a private address (${bad.address})`),
        {
          code: 'EPRIVATE',
        },
      )
      return callback(refusal, [])
    }
    if (options.all) return callback(null, addresses)
    const first = addresses[0]
    if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), [])
    callback(null, first.address, first.family)
  })
}

function getOnce(
  url: URL,
  limits: Required<FetchLimits>,
  signal: AbortSignal,
): Promise<{ redirect: string } | { body: Buffer }> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        signal,
        headers: { accept: 'image/*', 'user-agent': 'crv-training-targets-import' },
        ...(limits.allowPrivateNetwork ? {} : { lookup: publicLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0
        const location = response.headers.location
        if (status >= 300 && status < 400 && location) {
          response.resume()
          return resolve({ redirect: new URL(location, url).href })
        }
        if (status < 200 || status >= 300) {
          response.resume()
          return reject(new Error(`the server answered ${status}`))
        }
        const declared = Number(response.headers['content-length'] ?? 0)
        if (declared > limits.maxBytes) {
          response.destroy()
          return reject(new Error(`it is larger than ${limits.maxBytes} bytes`))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limits.maxBytes) {
            response.destroy()
            reject(new Error(`it is larger than ${limits.maxBytes} bytes`))
          } else chunks.push(chunk)
        })
        response.on('end', () => resolve({ body: Buffer.concat(chunks) }))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
  })
}

/** The bytes at `address`, or an AppError `image_fetch_failed` saying why not. */
export async function fetchPicture(address: string, options: FetchLimits): Promise<Buffer> {
  const limits: Required<FetchLimits> = {
    timeoutMs: 15_000,
    maxRedirects: 3,
    allowPrivateNetwork: false,
    ...options,
  }
  const signal = AbortSignal.timeout(limits.timeoutMs)
  let current = address
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    let url: URL
    try {
      url = new URL(current)
    } catch {
      throw failed(address, 'it is not a valid URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw failed(address, `only http and https are fetched, not ${url.protocol.slice(0, 20)}`)
    }
    if (url.username || url.password) throw failed(address, 'URLs with credentials are not fetched')
    // A literal address is connected to without a lookup: checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '')
    if (!limits.allowPrivateNetwork && isIP(literal) && isPrivateAddress(literal)) {
      throw failed(address, `${literal} is a private or loopback address`)
    }
    let answer: { redirect: string } | { body: Buffer }
    try {
      answer = await getOnce(url, limits, signal)
    } catch (err) {
      const e = err as NodeJS.ErrnoException
      const why =
        e.name === 'AbortError' || e.name === 'TimeoutError'
          ? `no answer within ${limits.timeoutMs / 1000} s`
          : e.code === 'EPRIVATE'
            ? e.message
            : e.message || 'the connection failed'
      throw failed(address, why)
    }
    if ('body' in answer) return answer.body
    current = answer.redirect
  }
  throw failed(address, `more than ${limits.maxRedirects} redirects`)
}
