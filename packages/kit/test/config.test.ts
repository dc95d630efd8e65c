import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { baseConfigShape, ConfigError, loadConfig, storageConfigShape } from '../src/index.ts'

describe('loadConfig', () => {
  it('applies defaults that work on one machine', () => {
    const config = loadConfig(baseConfigShape('astro', 8085), {})
    expect(config).toMatchObject({
      HOST: '127.0.0.1',
      PORT: 8085,
      LOG_LEVEL: 'info',
      SERVICE_NAME: 'astro',
    })
  })

  it('fails fast naming every bad variable and what it got', () => {
    const shape = { ...baseConfigShape('auth', 8081), DATABASE_URL: z.url() }
    const load = () => loadConfig(shape, { PORT: 'eighty', LOG_LEVEL: 'loud' })
    expect(load).toThrow(ConfigError)
    expect(load).toThrow(/PORT: .*\(got "eighty"\)/)
    expect(load).toThrow(/LOG_LEVEL/)
    expect(load).toThrow(/DATABASE_URL: .*\(not set\)/)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig(baseConfigShape('ai', 8084), { PORT: '' }).PORT).toBe(8084)
  })
})

describe('storageConfigShape', () => {
  it('stores in files unless a bucket is set, and reads an S3 store when one is', () => {
    const shape = { ...baseConfigShape('media', 8083), ...storageConfigShape }
    const local = loadConfig(shape, {})
    expect(local.S3_BUCKET).toBeUndefined()
    expect(local.S3_REGION).toBe('us-east-1')
    expect(
      loadConfig(shape, {
        S3_BUCKET: 'crv-media',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_ACCESS_KEY_ID: 'minio',
        S3_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toMatchObject({
      S3_BUCKET: 'crv-media',
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: true,
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'secret',
    })
  })

  it('refuses a bucket name S3 would refuse and an endpoint that is not a URL', () => {
    const load = () => loadConfig(storageConfigShape, { S3_BUCKET: 'ab', S3_ENDPOINT: 'not a url' })
    expect(load).toThrow(/S3_BUCKET/)
    expect(load).toThrow(/S3_ENDPOINT/)
  })
})
