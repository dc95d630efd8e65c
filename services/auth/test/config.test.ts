import { describe, expect, it } from 'vitest'
import { ConfigError } from '@crv/kit'
import { loadAuthConfig } from '../src/config.ts'

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://crv@db:5432/crv',
  PUBLIC_URL: 'https://crv.example.org',
  SMS_PROVIDER: 'sns',
}

describe('production configuration', () => {
  it('starts with an https origin and a real SMS provider', () => {
    expect(loadAuthConfig(production).PUBLIC_URL).toBe('https://crv.example.org')
  })

  it('refuses to start without an https public origin, naming PUBLIC_URL', () => {
    const refusal = /PUBLIC_URL must be the site's https:\/\/ address in production/
    for (const unset of [undefined, '']) {
      const start = () => loadAuthConfig({ ...production, PUBLIC_URL: unset })
      expect(start, `PUBLIC_URL=${unset}`).toThrow(ConfigError)
      expect(start, `PUBLIC_URL=${unset}`).toThrow(refusal)
      expect(start, `PUBLIC_URL=${unset}`).toThrow(/not set/)
    }
    // On this machine too: over http the refresh cookie is not Secure, whatever the host.
    for (const url of ['http://crv.example.org', 'http://localhost:8080', 'http://127.0.0.1']) {
      const start = () => loadAuthConfig({ ...production, PUBLIC_URL: url })
      expect(start, url).toThrow(ConfigError)
      expect(start, url).toThrow(refusal)
      expect(start, url).toThrow(`got "${url}"`)
    }
    expect(loadAuthConfig({ ...production, PUBLIC_URL: 'https://localhost:8443' }).PUBLIC_URL).toBe(
      'https://localhost:8443',
    )
  })

  it('refuses the console SMS provider unless explicitly allowed, naming the variables', () => {
    const consoleSms = { ...production, SMS_PROVIDER: 'console' }
    expect(() => loadAuthConfig(consoleSms)).toThrow(/SMS_PROVIDER.*ALLOW_CONSOLE_SMS=true/)
    expect(() => loadAuthConfig({ ...production, SMS_PROVIDER: undefined })).toThrow(ConfigError)
    expect(loadAuthConfig({ ...consoleSms, ALLOW_CONSOLE_SMS: 'true' }).SMS_PROVIDER).toBe(
      'console',
    )
  })

  it('keeps the development defaults working as they are', () => {
    const dev = loadAuthConfig({ DATABASE_URL: production.DATABASE_URL })
    expect(dev).toMatchObject({ SMS_PROVIDER: 'console', PUBLIC_URL: 'http://localhost:8080' })
  })

  it('refuses a dev SMS outbox that needs a key it was not given', () => {
    const dev = { DATABASE_URL: production.DATABASE_URL, DEV_OUTBOX_ACCESS: 'key' }
    expect(() => loadAuthConfig(dev)).toThrow(/DEV_OUTBOX_ACCESS=key needs DEV_OUTBOX_KEY/)
    expect(() => loadAuthConfig({ ...dev, DEV_OUTBOX_KEY: 'short' })).toThrow(/DEV_OUTBOX_KEY/)
    expect(loadAuthConfig({ ...dev, DEV_OUTBOX_KEY: 'k'.repeat(24) }).DEV_OUTBOX_ACCESS).toBe('key')
  })
})
