import sharp from 'sharp'
import type { Metadata, Sharp } from 'sharp'
import { AppError } from '../errors.ts'
import { CONTENT_TYPES, sniffImageFormat } from './sniff.ts'
import type { ImageFormat } from './sniff.ts'

/** The admin panel's size: at most 800 wide (landscape) or 600 tall (portrait), spec §9. */
export const FIT_WIDTH = 800
export const FIT_HEIGHT = 600
export const FIT_JPEG_QUALITY = 70
/** Re-encoding an original (to apply its orientation and drop metadata) keeps it near-lossless. */
const KEEP_QUALITY = 95

export interface ImageLimits {
  maxBytes: number
  maxPixels: number
}

export interface PreparedImage {
  bytes: Buffer
  format: ImageFormat
  contentType: string
  width: number
  height: number
}

const megapixels = (n: number) => `${Math.round(n / 100_000) / 10} million`

export const imageTooLarge = (maxBytes: number) =>
  new AppError(
    'image_too_large',
    413,
    `The image is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`,
    { maxBytes },
  )

function notAnImage(declared: string | undefined): AppError {
  return new AppError(
    'unsupported_image',
    415,
    `The file is not a JPEG, PNG, WebP or GIF image${declared ? ` (it was sent as ${declared}, but its content is not an image of these types)` : ''}`,
  )
}

const unreadable = () =>
  new AppError('image_unreadable', 400, 'The image is damaged or cannot be read')

function tooManyPixels(width: number, height: number, maxPixels: number): AppError {
  return new AppError(
    'image_too_many_pixels',
    400,
    `The image has too many pixels (${width}×${height}); at most ${megapixels(maxPixels)} are accepted`,
    { width, height, maxPixels },
  )
}

function encode(pipeline: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: KEEP_QUALITY })
    case 'png':
      return pipeline.png()
    case 'webp':
      return pipeline.webp({ quality: KEEP_QUALITY })
    case 'gif':
      return pipeline.gif()
  }
}

/**
 * Checks an uploaded image and makes what is stored: the real type from the signature, the
 * byte and pixel limits, EXIF orientation applied; with `fit` scaled into 800×600 as JPEG
 * quality 70, otherwise in its own format and size. Always re-encoded, never stored as sent: a
 * decoder skips what it does not know (JPEG COM and APPn segments, PNG text and private chunks,
 * bytes after the end), so only re-encoding drops all of it. Pixels and the colour profile stay.
 */
export async function prepareImage(
  input: Buffer,
  options: { fit: boolean; declaredType?: string | undefined; limits: ImageLimits },
): Promise<PreparedImage> {
  const { limits } = options
  if (input.length > limits.maxBytes) throw imageTooLarge(limits.maxBytes)
  const format = sniffImageFormat(input)
  if (!format) throw notAnImage(options.declaredType)

  const animated = !options.fit && (format === 'gif' || format === 'webp')
  const open = () =>
    sharp(input, {
      limitInputPixels: limits.maxPixels,
      failOn: 'error',
      autoOrient: true,
      ...(animated ? { animated: true } : {}),
    })

  let meta: Metadata
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata()
  } catch {
    throw unreadable()
  }
  if (meta.format !== format) throw unreadable()
  const frameHeight = meta.pageHeight ?? meta.height
  if (meta.width * frameHeight > limits.maxPixels)
    throw tooManyPixels(meta.width, frameHeight, limits.maxPixels)

  try {
    if (options.fit) {
      const { data, info } = await open()
        .resize(FIT_WIDTH, FIT_HEIGHT, { fit: 'inside', withoutEnlargement: true })
        // JPEG has no transparency: transparent areas become white, not black.
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: FIT_JPEG_QUALITY })
        .toBuffer({ resolveWithObject: true })
      return {
        bytes: data,
        format: 'jpeg',
        contentType: CONTENT_TYPES.jpeg,
        width: info.width,
        height: info.height,
      }
    }
    const { data, info } = await encode(open().keepIccProfile(), format).toBuffer({
      resolveWithObject: true,
    })
    return {
      bytes: data,
      format,
      contentType: CONTENT_TYPES[format],
      width: info.width,
      height: info.pageHeight ?? info.height,
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    if (/pixel limit/i.test((err as Error).message))
      throw tooManyPixels(meta.width, frameHeight, limits.maxPixels)
    throw unreadable()
  }
}

export { CONTENT_TYPES, EXTENSIONS, sniffImageFormat } from './sniff.ts'
export type { ImageFormat } from './sniff.ts'
