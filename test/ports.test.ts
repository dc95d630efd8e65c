// The launcher hands every process its own port: the ports it picks are distinct, free, and never
// one it was told to keep for the gateway (CI once saw a service take the gateway's port).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort, freePorts } from '../scripts/lib/ports.ts'

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

describe('free ports', () => {
  it('are distinct, free and never one to avoid', async () => {
    // Avoid every third port of the kernel's range: 40 picks that ignored the list would hit it
    // (the kernel hands out neighbouring ports while the earlier ones are held).
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number) as [number, number]
    const avoid = Array.from({ length: high - low + 1 }, (_, i) => low + i).filter(
      (p) => p % 3 === 0,
    )
    const picked = await freePorts(40, avoid)
    expect(new Set(picked).size).toBe(40)
    expect(picked.filter((p) => p % 3 === 0)).toEqual([])
    expect(await Promise.all(picked.slice(0, 5).map(bindable))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    expect(await bindable(await freePort())).toBe(true)
  })
})
