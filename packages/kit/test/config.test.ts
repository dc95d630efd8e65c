import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { baseConfigShape, ConfigError, loadConfig } from '../src/index.ts'

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
