// Why a target is refused, in the shape of the error body's `error` (code, message, details).
import type { components } from '@crv/contracts'
import { AppError } from '@crv/kit'
import { NEAR_DUPLICATE_MAX_DISTANCE } from '../near-duplicates/perceptual-hash.ts'

type Schemas = components['schemas']
export type Reason = Schemas['PracticeImportReason']
export type ReasonCode = Schemas['PracticeImportReasonCode']

const PICTURE_CODES: readonly ReasonCode[] = [
  'image_missing',
  'url_not_fetched',
  'image_fetch_failed',
  'image_too_large',
  'image_too_many_pixels',
  'unsupported_image',
  'image_unreadable',
]

/** A refusal of the picture (missing, unfetched, or what an upload refuses) as a reason. */
export function pictureReason(err: unknown): Reason {
  if (!(err instanceof AppError)) throw err
  const code = PICTURE_CODES.find((c) => c === err.code)
  if (!code) throw err
  const maxBytes = (err.details as { maxBytes?: unknown } | undefined)?.maxBytes
  return {
    code,
    message: err.message.slice(0, 1000),
    ...(typeof maxBytes === 'number' ? { details: { maxBytes } } : {}),
  }
}

export const nearDuplicate = (target: { id: string; title: string }, distance: number): Reason => ({
  code: 'near_duplicate',
  message:
    `The picture is a near-duplicate of the pool's target "${target.title}" (${target.id}): ` +
    `their perceptual hashes differ in ${distance} of 64 bits, ${NEAR_DUPLICATE_MAX_DISTANCE} or fewer count as the same picture.`,
  details: { targetId: target.id, title: target.title.slice(0, 200), distance },
})

export const duplicateInManifest = (row: number, distance: number | null): Reason => ({
  code: 'duplicate_in_manifest',
  message:
    distance === null
      ? `Row ${row} names the same picture.`
      : `The picture is a near-duplicate of row ${row}'s (their perceptual hashes differ in ${distance} of 64 bits).`,
  details: { row, ...(distance === null ? {} : { distance }) },
})

/** For an admin upload of several pictures: the earlier one (from 1) it repeats. */
export const nearDuplicateInUpload = (position: number, distance: number): Reason => ({
  code: 'near_duplicate',
  message: `The picture is a near-duplicate of picture ${position} of this upload (their perceptual hashes differ in ${distance} of 64 bits).`,
  details: { row: position, distance },
})
