import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import { createApp } from '@crv/kit'
import { FsStorage } from '@crv/kit/storage'
import type { ObjectStorage } from '@crv/kit/storage'
import { createTestKeys, testDatabaseUrl, testEnv } from '@crv/kit/testing'
import type { TestKeys } from '@crv/kit/testing'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'
import type { MediaConfig } from '../src/config.ts'

export interface ImageHarness {
  app: FastifyInstance
  keys: TestKeys
  config: MediaConfig
  /** The storage the app writes to (unwrapped). */
  files: FsStorage
  admin: string
  user: string
  send(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>
  uploadJson(token: string | null, body: Record<string, unknown>): Promise<LightMyRequestResponse>
  uploadForm(token: string | null, parts: FormPart[]): Promise<LightMyRequestResponse>
}

export interface FormPart {
  name: string
  value: string | Buffer
  filename?: string
  type?: string
}

/** The media app with its own data folder, optionally around a storage that misbehaves. */
export async function imageHarness(
  env: Record<string, string> = {},
  wrap?: (files: FsStorage) => ObjectStorage,
): Promise<ImageHarness> {
  const keys = await createTestKeys()
  const config = loadMediaConfig(testEnv({ DATABASE_URL: testDatabaseUrl(), ...env }))
  const files = new FsStorage(join(config.DATA_DIR, 'objects'))
  const app = createApp(config)
  await app.register(mediaApp, {
    config,
    verifyToken: keys.verifyToken,
    storage: wrap ? wrap(files) : files,
  })
  await app.ready()
  const send = (token: string | null, options: InjectOptions) =>
    app.inject({
      ...options,
      headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    })
  return {
    app,
    keys,
    config,
    files,
    admin: await keys.tokenFor('admin'),
    user: await keys.tokenFor('user'),
    send,
    uploadJson: (token, body) =>
      send(token, { method: 'POST', url: '/api/tachistoscope/images/upload', payload: body }),
    uploadForm: (token, parts) => {
      const { payload, contentType } = multipartBody(parts)
      return send(token, {
        method: 'POST',
        url: '/api/tachistoscope/images/upload',
        payload,
        headers: { 'content-type': contentType },
      })
    },
  }
}

export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----crv${randomUUID().replaceAll('-', '')}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`
    chunks.push(Buffer.from(head), Buffer.from(part.value), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

export const dataUrl = (bytes: Buffer, type: string) =>
  `data:${type};base64,${bytes.toString('base64')}`

const made = new Map<string, Promise<Buffer>>()

/**
 * A photo-like image in the given format: with `noise`, grain that compresses like a photo does
 * (made at a quarter of the size and scaled up, which is much quicker). Made once per shape.
 */
export function photo(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg',
  options: { noise?: boolean; alpha?: boolean } = {},
): Promise<Buffer> {
  const key = JSON.stringify([width, height, format, options])
  let image = made.get(key)
  if (!image) {
    image = makePhoto(width, height, format, options)
    made.set(key, image)
  }
  return image
}

async function makePhoto(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'gif',
  options: { noise?: boolean; alpha?: boolean },
): Promise<Buffer> {
  const channels = options.alpha ? 4 : 3
  if (options.noise) {
    const grain = await sharp({
      create: {
        width: Math.max(1, Math.round(width / 4)),
        height: Math.max(1, Math.round(height / 4)),
        channels,
        background: { r: 0, g: 0, b: 0, alpha: 0.5 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer()
    return sharp(grain).resize(width, height, { fit: 'fill' }).toFormat(format).toBuffer()
  }
  return sharp({
    create: {
      width,
      height,
      channels,
      background: options.alpha ? { r: 200, g: 40, b: 40, alpha: 0.3 } : { r: 40, g: 120, b: 200 },
    },
  })
    .toFormat(format)
    .toBuffer()
}
