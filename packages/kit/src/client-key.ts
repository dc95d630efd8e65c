import { isIP } from 'node:net'

/**
 * The client a per-client limit counts, from a request's address: an IPv4 address as it is (an
 * IPv4-mapped `::ffff:a.b.c.d` too), an IPv6 address as its /64, written one way (`2001:db8::/64`)
 * however the address was spelled. One subscriber holds a whole /64, so keyed by the full address
 * one client had 2^64 fresh counts. Anything that is not an address is returned unchanged.
 * For limits only: logs and X-Forwarded-For keep the real address.
 */
export function clientKey(ip: string): string {
  if (isIP(ip) === 4) return ip
  // A zone id (`fe80::1%eth0`) names the server's interface, not the client.
  const address = ip.split('%')[0] ?? ''
  if (isIP(address) !== 6) return ip
  const groups = ipv6Groups(address)
  if (!groups) return ip
  const [g6 = 0, g7 = 0] = groups.slice(6)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`
  const prefix = `${groups.slice(0, 4).map(hex).join(':')}::`
  return `${canonicalIpv6(prefix) ?? prefix}/64`
}

const hex = (group: number) => group.toString(16)

/** RFC 5952's form (lower case, the longest zero run as `::`, no dotted tail), by the URL parser. */
function canonicalIpv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
}

/** The eight 16-bit groups of an IPv6 address. */
function ipv6Groups(address: string): number[] | undefined {
  const canonical = canonicalIpv6(address)
  if (canonical === undefined) return undefined
  const [head = '', tail] = canonical.split('::')
  const split = (part: string | undefined) =>
    part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []
  const [h, t] = [split(head), split(tail)]
  return [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t]
}
