// Perceptual hashes of target pictures (issue [24]): a picture that is a re-encoded, rescaled or
// recompressed copy of another keeps nearly the same 64-bit DCT hash, while different scenes
// differ in many bits. The hash is sharp-phash's (docs/decisions.md says why that package).
import sharp from 'sharp'
import sharpPhash from 'sharp-phash'

// sharp-phash's types declare `export default`, its code sets `module.exports`: under Node's ESM
// the default import is the function itself.
const phash = sharpPhash as unknown as typeof sharpPhash.default

/**
 * Pictures whose hashes differ in at most this many of 64 bits are near-duplicates. Measured on
 * the starter pool of 206 pictures: copies (JPEG quality 10 to 95, rescaled from 200 to 2400 px
 * wide, PNG, WebP, each then stored as uploads are) differ in at most 11 bits, the closest two
 * different pictures in 14 (docs/decisions.md). This is midway.
 */
export const NEAR_DUPLICATE_MAX_DISTANCE = 12

/**
 * Below this spread of grey levels (standard deviation, of 255, on the hash's 32×32 sample) a
 * picture is one flat colour. Its DCT has nothing but rounding noise, so its hash says nothing:
 * two flat pictures of different colours can hash alike, and one flat picture hashes unlike its
 * copy. The starter pool's flattest picture (a deep-field sky) spreads 13 levels.
 */
const FLAT_SPREAD = 2

export interface PerceptualHash {
  /** 64 characters, '0' or '1' (PostgreSQL's bit(64) text form). */
  bits: string
  /** One flat colour: never a near-duplicate of anything. */
  flat: boolean
}

/** The hash of a picture as stored (decoded, in any format sharp reads). */
export async function perceptualHashOf(image: Buffer): Promise<PerceptualHash> {
  const [bits, sample] = await Promise.all([
    phash(image),
    sharp(image).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer(),
  ])
  return { bits, flat: spread(sample) < FLAT_SPREAD }
}

/** The standard deviation of the grey levels (sharp's stats() would read the original). */
function spread(grey: Buffer): number {
  let sum = 0
  let squares = 0
  for (const level of grey) {
    sum += level
    squares += level * level
  }
  const mean = sum / grey.length
  return Math.sqrt(Math.max(0, squares / grey.length - mean * mean))
}

export function hammingDistance(a: string, b: string): number {
  let distance = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) distance++
  return distance
}

/** The closest of `among` within the threshold, or null; flat pictures match nothing. */
export function nearestDuplicate<T extends { hash: PerceptualHash }>(
  hash: PerceptualHash,
  among: Iterable<T>,
): { match: T; distance: number } | null {
  if (hash.flat) return null
  let best: { match: T; distance: number } | null = null
  for (const candidate of among) {
    if (candidate.hash.flat) continue
    const distance = hammingDistance(hash.bits, candidate.hash.bits)
    if (distance <= NEAR_DUPLICATE_MAX_DISTANCE && (!best || distance < best.distance)) {
      best = { match: candidate, distance }
    }
  }
  return best
}
