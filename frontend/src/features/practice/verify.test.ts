import { describe, expect, it } from 'vitest'
import { moveItem } from './ranking.ts'
import { sha256Hex, verifyReveal } from './verify.ts'

describe('the reveal check', () => {
  it('hashes as the server does (SHA-256, lowercase hex)', async () => {
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('accepts a reveal that matches the commitment and refuses one that does not', async () => {
    const image = new TextEncoder().encode('the picture').buffer as ArrayBuffer
    const imageSha256 = await sha256Hex(image)
    const reveal = { targetId: 't-1', imageSha256, nonce: 'n'.repeat(64) }
    const published = await sha256Hex(`t-1|${imageSha256}|${'n'.repeat(64)}`)
    expect(await verifyReveal(reveal, published, image)).toMatchObject({
      imageMatches: true,
      commitmentMatches: true,
    })
    const other = new TextEncoder().encode('another picture').buffer as ArrayBuffer
    expect(await verifyReveal(reveal, published, other)).toMatchObject({
      imageMatches: false,
      commitmentMatches: false,
    })
    expect(
      await verifyReveal({ ...reveal, nonce: 'm'.repeat(64) }, published, image),
    ).toMatchObject({
      commitmentMatches: false,
    })
  })
})

describe('ranking', () => {
  it('moves a candidate up and down, never off the list', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    expect(moveItem(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c'])
  })
})
