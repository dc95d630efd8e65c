import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { FsStorage, S3Storage } from '../src/storage.ts'
import type { ObjectStorage } from '../src/storage.ts'

// s3rver is an S3-compatible server from npm: it speaks the S3 REST API but does NOT check
// request signatures, so these tests prove the driver's protocol use, not AWS authentication.
// No real S3 server can be installed on this machine.
let s3rver: S3rver
let s3: S3Storage

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'crv-s3rver-'))
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir })
  const { port } = (await s3rver.run()) as { port: number }
  s3 = new S3Storage({
    bucket: 'crv-test',
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  })
  await s3.client.send(new CreateBucketCommand({ Bucket: 'crv-test' }))
})
afterAll(async () => {
  s3.client.destroy()
  await s3rver.close()
})

const drivers: [string, () => Promise<ObjectStorage>][] = [
  ['filesystem', async () => new FsStorage(await mkdtemp(join(tmpdir(), 'crv-objects-')))],
  ['S3 (s3rver)', async () => s3],
]

describe.each(drivers)('%s storage', (_name, make) => {
  it('stores, reads, ranges, lists and deletes an object', async () => {
    const storage = await make()
    const key = `custom_audio/u${Date.now()}/word.mp3`
    const put = await storage.put(key, Buffer.from('hello world'), { contentType: 'audio/mpeg' })
    expect(put.size).toBe(11)

    const head = await storage.head(key)
    expect(head).toMatchObject({ key, size: 11, contentType: 'audio/mpeg' })
    expect(head?.etag).toBeTruthy()

    const whole = await storage.get(key)
    expect(whole && (await text(whole.body))).toBe('hello world')
    const part = await storage.get(key, { start: 6, end: 10 })
    expect(part && (await text(part.body))).toBe('world')

    const listed = await storage.list(key.split('/').slice(0, 2).join('/') + '/')
    expect(listed.map((o) => o.key)).toEqual([key])

    await storage.delete(key)
    expect(await storage.head(key)).toBeNull()
    expect(await storage.get(key)).toBeNull()
    await expect(storage.delete(key)).resolves.toBeUndefined()
  })

  it('refuses keys that could escape their prefix', async () => {
    const storage = await make()
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', '']) {
      await expect(
        storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }),
      ).rejects.toMatchObject({
        code: 'invalid_object_key',
        statusCode: 400,
      })
    }
  })
})

describe('filesystem storage', () => {
  it('leaves no temporary files behind after a write', async () => {
    const root = await mkdtemp(join(tmpdir(), 'crv-objects-'))
    const storage = new FsStorage(root)
    await storage.put('images/a.jpg', Buffer.alloc(1024), { contentType: 'image/jpeg' })
    expect((await readdir(join(root, 'images'))).sort()).toEqual(['a.jpg', 'a.jpg.meta'])
  })
})
