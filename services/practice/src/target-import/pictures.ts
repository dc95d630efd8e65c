// Where an import's pictures come from: the files sent with the request (the admin page), or
// the disk beside the manifest (the command line). A URL is fetched only by the command line,
// through the fetcher it passes in (scripts/lib/fetch-picture.ts); the server never fetches one
// (docs/security.md says why).
import { open } from 'node:fs/promises'
import { basename, isAbsolute, relative, resolve } from 'node:path'
import { AppError } from '@crv/kit'
import { imageTooLarge } from '@crv/kit/images'

/** The bytes of the picture a manifest row names; throws an AppError with a picture code. */
export type PictureSource = (file: string) => Promise<Buffer>

export const isUrl = (file: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(file)

/** A path as written, with `/` for folders and no leading `./`, for matching names. */
export const normalisedPath = (file: string) =>
  file
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/')

const missing = (file: string, why: string) =>
  new AppError('image_missing', 400, `The picture "${file.slice(0, 300)}" ${why}.`)

const urlNotFetched = () =>
  new AppError(
    'url_not_fetched',
    400,
    'Pictures named by URL are fetched only by the command-line import (npm run targets:import); upload the file itself here.',
  )

function decodeBase64(file: string, data: string): Buffer {
  const comma = data.startsWith('data:') ? data.indexOf(',') : -1
  const base64 = comma >= 0 ? data.slice(comma + 1) : data
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(base64)) {
    throw new AppError('image_unreadable', 400, `The picture "${file}" was not sent as base64.`)
  }
  return Buffer.from(base64, 'base64')
}

/**
 * The pictures sent with a request, by the path the manifest writes, or by the file's name alone
 * when one sent file has it (a browser sends names without their folders).
 */
export function uploadedPictures(files: readonly { name: string; data: string }[]): PictureSource {
  const byPath = new Map<string, { name: string; data: string }>()
  const byName = new Map<string, { name: string; data: string }[]>()
  for (const file of files) {
    const path = normalisedPath(file.name)
    byPath.set(path, file)
    const name = basename(path)
    byName.set(name, [...(byName.get(name) ?? []), file])
  }
  return async (written) => {
    if (isUrl(written)) throw urlNotFetched()
    const path = normalisedPath(written)
    const sameName = byName.get(basename(path)) ?? []
    const file = byPath.get(path) ?? (sameName.length === 1 ? sameName[0] : undefined)
    if (!file) {
      throw missing(
        written,
        sameName.length > 1
          ? 'matches several files sent by name: send them with their folders'
          : 'was not among the files sent',
      )
    }
    return decodeBase64(written, file.data)
  }
}

/**
 * The pictures beside a manifest on disk (never outside its folder), at most `maxBytes` read;
 * URLs through `fetchUrl` when given, else refused.
 */
export function diskPictures(
  folder: string,
  maxBytes: number,
  fetchUrl?: (url: string) => Promise<Buffer>,
): PictureSource {
  const root = resolve(folder)
  return async (written) => {
    if (isUrl(written)) {
      if (!fetchUrl) throw urlNotFetched()
      return fetchUrl(written)
    }
    const path = resolve(root, normalisedPath(written))
    const inside = relative(root, path)
    if (inside.startsWith('..') || isAbsolute(inside))
      throw missing(written, "is outside the manifest's folder")
    const handle = await open(path, 'r').catch(() => null)
    if (!handle) throw missing(written, 'is not there')
    try {
      const stat = await handle.stat()
      if (!stat.isFile()) throw missing(written, 'is not a file')
      if (stat.size > maxBytes) throw imageTooLarge(maxBytes)
      return await handle.readFile()
    } finally {
      await handle.close()
    }
  }
}
