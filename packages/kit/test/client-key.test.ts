import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clientKey } from '@crv/kit'

const group = fc.integer({ min: 0, max: 0xffff })
const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n })
/** ::ffff:a.b.c.d is an IPv4 client on a dual-stack socket, keyed as that IPv4 address. */
const isMapped = (g: number[]) => g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff

/** How a client's stack or a proxy may write the same address. */
interface Spelling {
  pad: boolean
  upper: boolean
  /** Compress the longest run of zero groups with `::`, or another run, or none. */
  compress: 'longest' | 'first' | 'none'
  dottedTail: boolean
  zone: boolean
}
const spelling: fc.Arbitrary<Spelling> = fc.record({
  pad: fc.boolean(),
  upper: fc.boolean(),
  compress: fc.constantFrom('longest', 'first', 'none'),
  dottedTail: fc.boolean(),
  zone: fc.boolean(),
})

function spell(g: number[], s: Spelling): string {
  let parts = g.map((x) => {
    const hex = x.toString(16)
    return s.pad ? hex.padStart(4, '0') : hex
  })
  let tail = ''
  if (s.dottedTail) {
    const [a = 0, b = 0] = g.slice(6)
    tail = `${a >> 8}.${a & 0xff}.${b >> 8}.${b & 0xff}`
    parts = parts.slice(0, 6)
  }
  // Runs of zero groups, as [start, length].
  const runs: [number, number][] = []
  for (let i = 0; i < parts.length; i++) {
    if (g[i] !== 0) continue
    const last = runs.at(-1)
    if (last && last[0] + last[1] === i) last[1]++
    else runs.push([i, 1])
  }
  const run =
    s.compress === 'none'
      ? undefined
      : s.compress === 'first'
        ? runs[0]
        : runs.reduce<[number, number] | undefined>(
            (a, r) => (!a || r[1] > a[1] ? r : a),
            undefined,
          )
  let text: string
  if (run) {
    const head = parts.slice(0, run[0]).join(':')
    const rest = [...parts.slice(run[0] + run[1]), ...(tail ? [tail] : [])].join(':')
    text = `${head}::${rest}`
  } else text = [...parts, ...(tail ? [tail] : [])].join(':')
  if (s.upper) text = text.toUpperCase()
  return s.zone ? `${text}%eth0` : text
}

describe('the key a per-client limit counts under', () => {
  it('keys every address of one IPv6 /64 alike, however it is written', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), spelling, spelling, (prefix, a, b, sa, sb) => {
        fc.pre(!isMapped([...prefix, ...a]) && !isMapped([...prefix, ...b]))
        expect(clientKey(spell([...prefix, ...a], sa))).toBe(
          clientKey(spell([...prefix, ...b], sb)),
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('keys addresses of different /64s apart', () => {
    fc.assert(
      fc.property(groups(8), groups(8), spelling, spelling, (a, b, sa, sb) => {
        fc.pre(a.slice(0, 4).join() !== b.slice(0, 4).join() && !isMapped(a) && !isMapped(b))
        expect(clientKey(spell(a, sa))).not.toBe(clientKey(spell(b, sb)))
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps an IPv4 address as it is, and never confuses it with an IPv6 key', () => {
    fc.assert(
      fc.property(fc.ipV4(), groups(8), spelling, (v4, v6, s) => {
        expect(clientKey(v4)).toBe(v4)
        expect(clientKey(spell(v6, s))).not.toBe(v4)
      }),
    )
  })

  it('keys an IPv4 client on a dual-stack socket by its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.boolean(), (v4, upper) => {
        expect(clientKey(`${upper ? '::FFFF' : '::ffff'}:${v4}`)).toBe(v4)
      }),
    )
    expect(clientKey('::ffff:7f00:1')).toBe('127.0.0.1')
    expect(clientKey('0:0:0:0:0:ffff:c000:0201')).toBe('192.0.2.1')
  })

  it('names the /64 in one short form', () => {
    expect(clientKey('2001:DB8:0:0:1:2:3:4')).toBe('2001:db8::/64')
    expect(clientKey('2001:db8:0:1::7%eth0')).toBe('2001:db8:0:1::/64')
    expect(clientKey('fe80::1%25lo')).toBe('fe80::/64')
    expect(clientKey('::1')).toBe('::/64')
  })

  it('keeps anything that is not an address as it is', () => {
    for (const text of ['', 'unknown', '2001:db8::g', '1.2.3.256'])
      expect(clientKey(text)).toBe(text)
  })
})
