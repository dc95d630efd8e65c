import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { prepareImage } from '../src/images/process.ts'
import {
  endsAtImageEnd,
  HIDDEN,
  hiddenTextIn,
  taggedJpeg,
  taggedPng,
} from '../src/testing/index.ts'

const limits = { maxBytes: 10 * 1024 * 1024, maxPixels: 10_000_000 }

describe('prepareImage', () => {
  it('stores the tagged JPEG and PNG with none of their hidden text, ending at the image end', async () => {
    for (const [format, tagged, hidden] of [
      ['jpeg', await taggedJpeg(), [HIDDEN.comment, HIDDEN.gps, HIDDEN.trailer]],
      ['png', await taggedPng(), [HIDDEN.text, HIDDEN.privateChunk, HIDDEN.trailer]],
    ] as const) {
      expect(hiddenTextIn(tagged)).toEqual(hidden)
      for (const fit of [false, true]) {
        const prepared = await prepareImage(tagged, { fit, limits })
        expect(prepared.format).toBe(fit ? 'jpeg' : format)
        expect(prepared).toMatchObject({ width: 40, height: 30 })
        expect(hiddenTextIn(prepared.bytes)).toEqual([])
        expect(endsAtImageEnd(prepared.bytes)).toBe(true)
      }
    }
  })

  it('keeps the pixels of a PNG and the colour profile of a photo', async () => {
    const png = await taggedPng()
    const prepared = await prepareImage(png, { fit: false, limits })
    const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer()
    expect((await pixels(prepared.bytes)).equals(await pixels(png))).toBe(true)

    const wide = await sharp(await taggedJpeg())
      .withIccProfile('p3')
      .jpeg()
      .toBuffer()
    const kept = await prepareImage(wide, { fit: false, limits })
    const icc = (await sharp(kept.bytes).metadata()).icc
    expect(icc?.equals((await sharp(wide).metadata()).icc ?? Buffer.alloc(0))).toBe(true)
  })
})
