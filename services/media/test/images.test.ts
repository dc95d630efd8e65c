import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ObjectStorage } from '@crv/kit/storage'
import { sweepImageDeletions } from '../src/images/deletions.ts'
import { sniffImageFormat } from '@crv/kit/images'
import { endsAtImageEnd, HIDDEN, hiddenTextIn, taggedJpeg, taggedPng } from '@crv/kit/testing'
import { dataUrl, imageHarness, photo } from './images-helpers.ts'
import type { ImageHarness } from './images-helpers.ts'

// Big pictures take a few seconds on a busy machine; nothing here is timed.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 })

let h: ImageHarness
beforeAll(async () => {
  h = await imageHarness()
})
afterAll(() => h.app.close())

const upload = (bytes: Buffer, type: string, extra: Record<string, unknown> = {}) =>
  h.uploadJson(h.admin, {
    filename: 'picture.jpg',
    category: 'random',
    imageData: dataUrl(bytes, type),
    mimeType: type,
    ...extra,
  })

const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer()

async function served(url: string) {
  const res = await h.send(null, { method: 'GET', url })
  expect(res.statusCode).toBe(200)
  return { res, bytes: res.rawPayload, meta: await sharp(res.rawPayload).metadata() }
}

describe('what an upload must be', () => {
  it('refuses a text file renamed .jpg, saying why', async () => {
    const text = Buffer.from('These are my holiday notes, not a picture.\n')
    const res = await h.uploadJson(h.admin, {
      filename: 'holiday.jpg',
      category: 'random',
      imageData: dataUrl(text, 'image/jpeg'),
      mimeType: 'image/jpeg',
    })
    expect(res.statusCode).toBe(415)
    expect(res.json().error.code).toBe('unsupported_image')
    expect(res.json().error.message).toMatch(/not a JPEG, PNG, WebP or GIF image/)
  })

  it('takes a PNG declared as JPEG as the PNG it is, pixel for pixel', async () => {
    const png = await photo(64, 48, 'png')
    const res = await upload(png, 'image/jpeg', { filename: 'sunset.jpg' })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      filename: 'sunset.jpg',
      category: 'random',
      width: 64,
      height: 48,
    })
    const file = await served(body.url)
    expect(file.res.headers['content-type']).toBe('image/png')
    expect((await pixels(file.bytes)).equals(await pixels(png))).toBe(true)
  })

  it('accepts WebP and GIF and refuses what only looks like an image at the start', async () => {
    for (const format of ['webp', 'gif'] as const) {
      const res = await upload(await photo(40, 30, format), 'image/png')
      expect(res.statusCode).toBe(201)
      expect((await served(res.json().url)).meta.format).toBe(format)
    }
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)])
    const res = await upload(broken, 'image/jpeg')
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('image_unreadable')
  })

  it('refuses a truncated JPEG', async () => {
    const jpeg = await photo(300, 200, 'jpeg', { noise: true })
    const res = await upload(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg')
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('image_unreadable')
  })

  it('refuses imageData that is not base64', async () => {
    const res = await h.uploadJson(h.admin, {
      filename: 'x.png',
      category: 'random',
      imageData: 'data:image/png;base64,@@@@',
      mimeType: 'image/png',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('invalid_request')
  })

  it('knows the four signatures', async () => {
    expect(sniffImageFormat(await photo(8, 8, 'jpeg'))).toBe('jpeg')
    expect(sniffImageFormat(await photo(8, 8, 'png'))).toBe('png')
    expect(sniffImageFormat(await photo(8, 8, 'webp'))).toBe('webp')
    expect(sniffImageFormat(await photo(8, 8, 'gif'))).toBe('gif')
    expect(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffImageFormat(Buffer.alloc(0))).toBeNull()
  })
})

describe('scaling and metadata', () => {
  it('fits a 4000×3000 JPEG into 800×600 at quality 70', async () => {
    const big = await photo(4000, 3000, 'jpeg', { noise: true })
    const res = await upload(big, 'image/jpeg', { fit: true })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ width: 800, height: 600 })
    const file = await served(res.json().url)
    expect(file.meta).toMatchObject({ format: 'jpeg', width: 800, height: 600 })
    expect(file.bytes.length).toBeLessThan(big.length / 5)
  })

  it('fits a portrait picture to 600 tall and a transparent PNG onto white JPEG', async () => {
    const portrait = await upload(await photo(1500, 2000, 'jpeg'), 'image/jpeg', { fit: true })
    expect(portrait.json()).toMatchObject({ width: 450, height: 600 })
    const png = await upload(await photo(1000, 500, 'png', { alpha: true }), 'image/png', {
      fit: true,
    })
    const file = await served(png.json().url)
    expect(file.meta).toMatchObject({ format: 'jpeg', width: 800, height: 400, hasAlpha: false })
    const { dominant } = await sharp(file.bytes).stats()
    // 30% red over white, not over black.
    expect(dominant.g).toBeGreaterThan(150)
  })

  it('never enlarges a small picture', async () => {
    const res = await upload(await photo(300, 200, 'png'), 'image/png', { fit: true })
    expect(res.json()).toMatchObject({ width: 300, height: 200 })
    expect((await served(res.json().url)).meta.format).toBe('jpeg')
  })

  it('keeps the original size and format without fit', async () => {
    const big = await photo(4000, 3000, 'jpeg')
    const res = await upload(big, 'image/jpeg')
    expect(res.json()).toMatchObject({ width: 4000, height: 3000 })
    expect((await served(res.json().url)).meta).toMatchObject({
      format: 'jpeg',
      width: 4000,
      height: 3000,
    })
  })

  it('applies EXIF orientation and strips the metadata', async () => {
    const rotated = await sharp(await photo(400, 200, 'jpeg', { noise: true }))
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'Camera owner', Software: 'Camera 1.0' } })
      .jpeg()
      .toBuffer()
    const before = await sharp(rotated).metadata()
    expect(before).toMatchObject({ width: 400, height: 200, orientation: 6 })
    expect(before.exif).toBeDefined()

    for (const fit of [false, true]) {
      const res = await upload(rotated, 'image/jpeg', { fit })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({ width: 200, height: 400 })
      const { meta, bytes } = await served(res.json().url)
      expect(meta).toMatchObject({ format: 'jpeg', width: 200, height: 400 })
      expect(meta.exif).toBeUndefined()
      expect(meta.orientation).toBeUndefined()
      // The colour profile is the one thing kept, with the original's own colours.
      if (fit) expect(meta.icc).toBeUndefined()
      else expect(meta.icc?.equals(before.icc ?? Buffer.alloc(0))).toBe(true)
      expect(bytes.includes(Buffer.from('Camera owner'))).toBe(false)
    }
  })

  it('strips PNG text chunks', async () => {
    const tagged = await sharp(await photo(50, 50, 'png'))
      .withMetadata()
      .withExif({ IFD0: { Artist: 'Someone' } })
      .png()
      .toBuffer()
    expect((await sharp(tagged).metadata()).exif).toBeDefined()
    const res = await upload(tagged, 'image/png')
    const { meta } = await served(res.json().url)
    expect(meta.format).toBe('png')
    expect(meta.exif).toBeUndefined()
  })

  it('stores no comment, GPS text, private chunk or trailing bytes, fitted or not', async () => {
    for (const [type, tagged, hidden] of [
      ['image/jpeg', await taggedJpeg(), [HIDDEN.comment, HIDDEN.gps, HIDDEN.trailer]],
      ['image/png', await taggedPng(), [HIDDEN.text, HIDDEN.privateChunk, HIDDEN.trailer]],
    ] as const) {
      expect(hiddenTextIn(tagged)).toEqual(hidden)
      for (const fit of [false, true]) {
        const res = await upload(tagged, type, { fit })
        expect(res.statusCode).toBe(201)
        const { bytes, meta } = await served(res.json().url)
        expect(meta).toMatchObject({ format: fit ? 'jpeg' : type.slice(6), width: 40, height: 30 })
        expect(hiddenTextIn(bytes)).toEqual([])
        expect(endsAtImageEnd(bytes)).toBe(true)
      }
    }
  })
})

describe('limits', () => {
  let small: ImageHarness
  beforeAll(async () => {
    small = await imageHarness({
      TACHISTOSCOPE_MAX_BYTES: '100000',
      TACHISTOSCOPE_MAX_PIXELS: '1000000',
    })
  })
  afterAll(() => small.app.close())

  const body = (bytes: Buffer, type = 'image/jpeg') => ({
    filename: 'a.jpg',
    category: 'people',
    imageData: dataUrl(bytes, type),
    mimeType: type,
  })

  it('refuses more bytes than allowed with 413, as JSON and as a form', async () => {
    const heavy = await photo(1000, 1000, 'jpeg', { noise: true })
    expect(heavy.length).toBeGreaterThan(100_000)
    const json = await small.uploadJson(small.admin, body(heavy))
    expect(json.statusCode).toBe(413)
    expect(json.json().error.code).toBe('image_too_large')
    const form = await small.uploadForm(small.admin, [
      { name: 'category', value: 'people' },
      { name: 'file', value: heavy, filename: 'a.jpg', type: 'image/jpeg' },
    ])
    expect(form.statusCode).toBe(413)
    expect(form.json().error.code).toBe('image_too_large')
  })

  it('refuses more pixels than allowed with 400, even when the file is small', async () => {
    const wide = await photo(2000, 1000, 'png')
    expect(wide.length).toBeLessThan(100_000)
    const res = await small.uploadJson(small.admin, body(wide, 'image/png'))
    expect(res.statusCode).toBe(400)
    expect(res.json().error.code).toBe('image_too_many_pixels')
    expect(res.json().error.message).toMatch(/2000×1000/)
    const fits = await small.uploadJson(
      small.admin,
      body(await photo(1000, 1000, 'png'), 'image/png'),
    )
    expect(fits.statusCode).toBe(201)
  })

  it('refuses a body over the operation limit with 413', async () => {
    const res = await h.send(h.admin, {
      method: 'POST',
      url: '/api/tachistoscope/images/upload',
      headers: { 'content-type': 'application/json' },
      payload: `{"filename":"a.jpg","category":"random","mimeType":"image/jpeg","imageData":"data:image/jpeg;base64,${'A'.repeat(26 * 1024 * 1024)}"}`,
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().error.code).toBe('payload_too_large')
  })
})

describe('the multipart form', () => {
  it('stores a large JPEG sent as a form, fitted when asked', async () => {
    const big = await photo(4000, 3000, 'jpeg', { noise: true })
    const res = await h.uploadForm(h.admin, [
      { name: 'category', value: 'people' },
      { name: 'fit', value: 'true' },
      { name: 'file', value: big, filename: 'C:\\photos\\crowd.jpg', type: 'image/jpeg' },
    ])
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      filename: 'crowd.jpg',
      category: 'people',
      width: 800,
      height: 600,
    })
    const list = await h.send(h.admin, {
      method: 'GET',
      url: '/api/tachistoscope/images/list/people',
    })
    expect(list.json().map((i: { id: string }) => i.id)).toContain(res.json().id)
  })

  it('keeps the original without fit, with fields after the file too', async () => {
    const png = await photo(120, 80, 'png')
    const res = await h.uploadForm(h.admin, [
      { name: 'file', value: png, filename: 'plain.png', type: 'application/octet-stream' },
      { name: 'category', value: 'random' },
    ])
    expect(res.statusCode).toBe(201)
    expect((await pixels((await served(res.json().url)).bytes)).equals(await pixels(png))).toBe(
      true,
    )
  })

  it('refuses a text file, a missing category, an unknown field and two files', async () => {
    const text = await h.uploadForm(h.admin, [
      { name: 'category', value: 'random' },
      { name: 'file', value: 'just words', filename: 'notes.jpg', type: 'image/jpeg' },
    ])
    expect(text.statusCode).toBe(415)
    expect(text.json().error.code).toBe('unsupported_image')
    const png = await photo(10, 10, 'png')
    const cases = [
      [{ name: 'file', value: png, filename: 'a.png' }],
      [
        { name: 'category', value: 'animals' },
        { name: 'file', value: png, filename: 'a.png' },
      ],
      [
        { name: 'category', value: 'random' },
        { name: 'owner', value: 'me' },
        { name: 'file', value: png, filename: 'a.png' },
      ],
      [
        { name: 'category', value: 'random' },
        { name: 'file', value: png, filename: 'a.png' },
        { name: 'file', value: png, filename: 'b.png' },
      ],
      [{ name: 'category', value: 'random' }],
    ]
    for (const parts of cases) {
      const res = await h.uploadForm(h.admin, parts)
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBe('invalid_request')
    }
  })
})

describe('categories and listings', () => {
  it('lists each category in upload order, with loadable URLs', async () => {
    const first = (
      await upload(await photo(20, 20, 'png'), 'image/png', { category: 'people' })
    ).json()
    const second = (
      await upload(await photo(21, 20, 'png'), 'image/png', { category: 'people' })
    ).json()
    const other = (await upload(await photo(22, 20, 'png'), 'image/png')).json()

    const list = (
      await h.send(h.admin, { method: 'GET', url: '/api/tachistoscope/images/list/people' })
    ).json() as { id: string; filename: string; dataUrl: string }[]
    const ids = list.map((i) => i.id)
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id))
    expect(ids).not.toContain(other.id)
    expect(list.find((i) => i.id === first.id)).toEqual({
      id: first.id,
      filename: 'picture.jpg',
      dataUrl: `/api/tachistoscope/files/${first.id}`,
    })

    const urls = (
      await h.send(h.admin, { method: 'GET', url: '/api/tachistoscope/images/people' })
    ).json().urls
    expect(urls).toContain(first.url)
    expect(urls).not.toContain(other.url)
  })

  it('knows only the categories random and people', async () => {
    for (const url of [
      '/api/tachistoscope/images/list/animals',
      '/api/tachistoscope/images/animals',
    ]) {
      const res = await h.send(h.admin, { method: 'GET', url })
      expect(res.statusCode).toBe(400)
    }
    const res = await upload(await photo(10, 10, 'png'), 'image/png', { category: 'animals' })
    expect(res.statusCode).toBe(400)
  })

  it('serves an image with its type, an ETag and for good', async () => {
    const { url } = (await upload(await photo(30, 30, 'webp'), 'image/webp')).json()
    const res = await h.send(null, { method: 'GET', url })
    expect(res.headers['content-type']).toBe('image/webp')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const etag = String(res.headers.etag)
    expect(etag).toMatch(/^".+"$/)
    const again = await h.send(null, { method: 'GET', url, headers: { 'if-none-match': etag } })
    expect(again.statusCode).toBe(304)
    const missing = await h.send(null, {
      method: 'GET',
      url: '/api/tachistoscope/files/00000000-0000-4000-8000-000000000000',
    })
    expect(missing.statusCode).toBe(404)
    expect(
      (await h.send(null, { method: 'GET', url: '/api/tachistoscope/files/nope' })).statusCode,
    ).toBe(400)
  })

  it('names objects itself, never after the file', async () => {
    const res = await upload(await photo(10, 10, 'png'), 'image/png', {
      filename: '../../etc/passwd.png',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().filename).toBe('passwd.png')
    const keys = (await h.files.list('tachistoscope/random/')).map((o) => o.key)
    expect(keys).toContain(`tachistoscope/random/${res.json().id}.png`)
    expect(keys.some((k) => k.includes('passwd'))).toBe(false)
  })
})

describe('who may do what', () => {
  it('refuses every image-changing call to visitors (401) and non-admins (403)', async () => {
    const { id } = (await upload(await photo(10, 10, 'png'), 'image/png')).json()
    const png = await photo(10, 10, 'png')
    for (const [token, status] of [
      [null, 401],
      [h.user, 403],
    ] as const) {
      const json = await h.uploadJson(token, {
        filename: 'a.png',
        category: 'random',
        imageData: dataUrl(png, 'image/png'),
        mimeType: 'image/png',
      })
      expect(json.statusCode).toBe(status)
      const form = await h.uploadForm(token, [
        { name: 'category', value: 'random' },
        { name: 'file', value: png, filename: 'a.png' },
      ])
      expect(form.statusCode).toBe(status)
      const del = await h.send(token, { method: 'DELETE', url: `/api/tachistoscope/images/${id}` })
      expect(del.statusCode).toBe(status)
    }
    expect(
      (await h.send(null, { method: 'GET', url: `/api/tachistoscope/files/${id}` })).statusCode,
    ).toBe(200)
  })

  it('keeps the listings to those who may use the tachistoscope', async () => {
    for (const url of [
      '/api/tachistoscope/images/list/random',
      '/api/tachistoscope/images/random',
    ]) {
      expect((await h.send(null, { method: 'GET', url })).statusCode).toBe(401)
      const user = await h.send(h.user, { method: 'GET', url })
      expect(user.statusCode).toBe(403)
      expect(user.json().error).toMatchObject({ code: 'access_restricted' })
      expect(user.json().error.message).toMatch(/^Access Restricted/)
      expect((await h.send(h.admin, { method: 'GET', url })).statusCode).toBe(200)
    }
  })
})

describe('deleting', () => {
  it('removes the row first, then the object', async () => {
    let rowAtObjectDeletion: number | undefined
    const spied = await imageHarness({}, (files) => ({
      ...bind(files),
      delete: async (key) => {
        const id = key.split('/').pop()?.split('.')[0]
        const rows = await spied.app.pg.query(
          'SELECT 1 FROM media.tachistoscope_images WHERE id = $1',
          [id],
        )
        rowAtObjectDeletion = rows.rowCount ?? 0
        await files.delete(key)
      },
    }))
    try {
      const res = await spied.uploadJson(spied.admin, {
        filename: 'bye.png',
        category: 'random',
        imageData: dataUrl(await photo(10, 10, 'png'), 'image/png'),
        mimeType: 'image/png',
      })
      const { id } = res.json()
      const key = `tachistoscope/random/${id}.png`
      expect(await spied.files.head(key)).not.toBeNull()
      const del = await spied.send(spied.admin, {
        method: 'DELETE',
        url: `/api/tachistoscope/images/${id}`,
      })
      expect(del.statusCode).toBe(204)
      expect(rowAtObjectDeletion).toBe(0)
      expect(await spied.files.head(key)).toBeNull()
      const list = await spied.send(spied.admin, {
        method: 'GET',
        url: '/api/tachistoscope/images/list/random',
      })
      expect(list.json().map((i: { id: string }) => i.id)).not.toContain(id)
      expect(
        (await spied.send(null, { method: 'GET', url: `/api/tachistoscope/files/${id}` }))
          .statusCode,
      ).toBe(404)
      const again = await spied.send(spied.admin, {
        method: 'DELETE',
        url: `/api/tachistoscope/images/${id}`,
      })
      expect(again.statusCode).toBe(404)
    } finally {
      await spied.app.close()
    }
  })

  it('retries the object when storage fails, until storage confirms', async () => {
    let failuresLeft = 0
    let calls = 0
    const flaky = await imageHarness({}, (files) => ({
      ...bind(files),
      delete: async (key) => {
        calls += 1
        if (failuresLeft > 0) {
          failuresLeft -= 1
          throw new Error('storage unavailable')
        }
        await files.delete(key)
      },
    }))
    const put = async () => {
      const res = await flaky.uploadJson(flaky.admin, {
        filename: 'x.png',
        category: 'people',
        imageData: dataUrl(await photo(12, 12, 'png'), 'image/png'),
        mimeType: 'image/png',
      })
      const { id } = res.json()
      return { id, key: `tachistoscope/people/${id}.png` }
    }
    const queued = async (key: string) =>
      (
        await flaky.app.pg.query(
          'SELECT attempts FROM media.tachistoscope_deletions WHERE object_key = $1',
          [key],
        )
      ).rows as { attempts: number }[]
    try {
      // Two failures: retried within the request.
      const brief = await put()
      failuresLeft = 2
      calls = 0
      expect(
        (
          await flaky.send(flaky.admin, {
            method: 'DELETE',
            url: `/api/tachistoscope/images/${brief.id}`,
          })
        ).statusCode,
      ).toBe(204)
      expect(calls).toBe(3)
      expect(await flaky.files.head(brief.key)).toBeNull()
      expect(await queued(brief.key)).toEqual([])

      // A longer outage: the image is gone at once, its object stays queued for the sweeper.
      const long = await put()
      failuresLeft = 1000
      const del = await flaky.send(flaky.admin, {
        method: 'DELETE',
        url: `/api/tachistoscope/images/${long.id}`,
      })
      expect(del.statusCode).toBe(204)
      expect(await flaky.files.head(long.key)).not.toBeNull()
      expect((await queued(long.key))[0]?.attempts).toBe(1)
      const list = await flaky.send(flaky.admin, {
        method: 'GET',
        url: '/api/tachistoscope/images/list/people',
      })
      expect(list.json().map((i: { id: string }) => i.id)).not.toContain(long.id)

      // Not due yet: the sweeper leaves it alone.
      await sweepImageDeletions({ db: flaky.app.db, storage: wrapped(), log: flaky.app.log })
      expect(await flaky.files.head(long.key)).not.toBeNull()

      failuresLeft = 0
      await flaky.app.pg.query(
        `UPDATE media.tachistoscope_deletions SET next_attempt_at = now() WHERE object_key = $1`,
        [long.key],
      )
      await sweepImageDeletions({ db: flaky.app.db, storage: wrapped(), log: flaky.app.log })
      expect(await flaky.files.head(long.key)).toBeNull()
      expect(await queued(long.key)).toEqual([])
    } finally {
      await flaky.app.close()
    }

    function wrapped(): ObjectStorage {
      return {
        ...bind(flaky.files),
        delete: async (key) => {
          if (failuresLeft > 0) throw new Error('storage unavailable')
          await flaky.files.delete(key)
        },
      }
    }
  })
})

/** The storage's methods, bound, so a test can replace one of them. */
function bind(files: ObjectStorage): ObjectStorage {
  return {
    driver: files.driver,
    put: files.put.bind(files),
    get: files.get.bind(files),
    head: files.head.bind(files),
    delete: files.delete.bind(files),
    list: files.list.bind(files),
  }
}
