import { crc32 } from 'node:zlib'
import sharp from 'sharp'

/** Text that a stored image must never carry: each fixture hides it in several places. */
export const HIDDEN = {
  comment: 'COM camera comment',
  gps: 'GPS 52.5200N 13.4050E',
  text: 'tEXt home address',
  privateChunk: 'prVt private chunk',
  trailer: 'TRAILER after the end',
} as const

const TRAILER = Buffer.from(HIDDEN.trailer)

function jpegSegment(marker: number, body: string): Buffer {
  const data = Buffer.from(body)
  const head = Buffer.from([0xff, marker, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

/**
 * A JPEG with a COM segment, an APP11 segment holding a GPS position in plain text (what a
 * decoder skips and `metadata()` does not report) and bytes after its end marker.
 */
export async function taggedJpeg(width = 40, height = 30): Promise<Buffer> {
  const plain = await sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer()
  return Buffer.concat([
    plain.subarray(0, 2),
    jpegSegment(0xfe, HIDDEN.comment),
    jpegSegment(0xeb, HIDDEN.gps),
    plain.subarray(2),
    TRAILER,
  ])
}

function pngChunk(type: string, body: string): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(body, 'latin1')])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(typeAndData.length - 4)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/** A PNG with a tEXt chunk, a private ancillary chunk (`prVt`) and bytes after IEND. */
export async function taggedPng(width = 40, height = 30): Promise<Buffer> {
  const plain = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer()
  // Signature (8) and IHDR (25) first; the ancillary chunks go before the image data.
  const afterHeader = 8 + 25
  return Buffer.concat([
    plain.subarray(0, afterHeader),
    pngChunk('tEXt', `Comment\0${HIDDEN.text}`),
    pngChunk('prVt', HIDDEN.privateChunk),
    plain.subarray(afterHeader),
    TRAILER,
  ])
}

/** Which of the hidden texts `bytes` still holds (none, for a properly re-encoded image). */
export function hiddenTextIn(bytes: Buffer): string[] {
  return Object.values(HIDDEN).filter((text) => bytes.includes(Buffer.from(text)))
}

/** Whether `bytes` end where the image ends: at the JPEG EOI marker or after the PNG IEND chunk. */
export function endsAtImageEnd(bytes: Buffer): boolean {
  const iend = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])
  return (
    (bytes[0] === 0xff && bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9]))) ||
    (bytes[0] === 0x89 && bytes.subarray(-8).equals(iend))
  )
}
