import type { FastifyRequest } from 'fastify'
import type { MultipartFile } from '@fastify/multipart'
import { AppError } from '@crv/kit'
import type { components } from '@crv/contracts'
import { imageTooLarge } from '@crv/kit/images'
import type { ImageCategory } from './repository.ts'

type UploadRequest = components['schemas']['TachistoscopeUploadRequest']

export interface UploadInput {
  category: ImageCategory
  filename: string | null
  bytes: Buffer
  declaredType: string | undefined
  fit: boolean
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const CATEGORIES: readonly string[] = ['random', 'people']

const invalid = (message: string) => new AppError('invalid_request', 400, message)

/** The original client's JSON body: the image as a base64 data URL (validated by the contract). */
export function jsonUpload(body: UploadRequest | undefined, maxBytes: number): UploadInput {
  // A request with no body at all (no content type, so the contract's JSON check never ran).
  if (typeof body?.imageData !== 'string') {
    throw invalid('Send the image as multipart/form-data (field file) or as JSON with imageData')
  }
  const comma = body.imageData.indexOf(',')
  const data = body.imageData.slice(comma + 1)
  // base64 carries 3 bytes in 4 characters: refuse by length before decoding anything.
  if (Math.floor((data.length * 3) / 4) - 2 > maxBytes) throw imageTooLarge(maxBytes)
  if (data.length % 4 !== 0 || !BASE64.test(data))
    throw invalid('imageData is not a valid base64 data URL')
  return {
    category: body.category,
    filename: body.filename,
    bytes: Buffer.from(data, 'base64'),
    declaredType: body.mimeType,
    fit: body.fit ?? false,
  }
}

function multipartError(err: unknown, maxBytes: number): unknown {
  const code = (err as { code?: string }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return imageTooLarge(maxBytes)
  if (code === 'FST_FILES_LIMIT') return invalid('Send one file per upload')
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return invalid('The form has too many fields; send file, category and fit')
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION')
    return invalid('The multipart form is malformed')
  if (err instanceof Error && /Unexpected end of form|Malformed/i.test(err.message))
    return invalid('The multipart form is malformed')
  return err
}

/** The multipart form (`file`, `category`, `fit`), for files too large for a JSON body. */
export async function multipartUpload(
  request: FastifyRequest,
  maxBytes: number,
): Promise<UploadInput> {
  const fields: Record<string, string> = {}
  let file: { bytes: Buffer; name: string; type: string } | null = null
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume()
          throw invalid('Send one image in the form field "file"')
        }
        file = await readFile(part)
      } else {
        if (!['category', 'fit'].includes(part.fieldname) || typeof part.value !== 'string')
          throw invalid(`Unknown form field "${part.fieldname}"; send file, category and fit`)
        fields[part.fieldname] = part.value
      }
    }
  } catch (err) {
    throw multipartError(err, maxBytes)
  }
  if (!file) throw invalid('The form has no file (field "file")')
  const category = fields.category
  if (!category || !CATEGORIES.includes(category))
    throw invalid('category must be "random" or "people"')
  if (fields.fit !== undefined && fields.fit !== 'true' && fields.fit !== 'false')
    throw invalid('fit must be "true" or "false"')
  return {
    category: category as ImageCategory,
    filename: file.name,
    bytes: file.bytes,
    declaredType: file.type,
    fit: fields.fit === 'true',
  }
}

async function readFile(part: MultipartFile) {
  const bytes = await part.toBuffer()
  return { bytes, name: part.filename, type: part.mimetype }
}
