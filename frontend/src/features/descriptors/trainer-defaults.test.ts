import { describe, expect, it } from 'vitest'
import { defaultStagesFor, storedLanguage } from './trainer-defaults.ts'

describe('trainer defaults', () => {
  it('takes a stored language, else none (the settings then decide)', () => {
    const store = (value: string | null) => ({ getItem: () => value })
    expect(storedLanguage(store('de'))).toBe('de')
    expect(storedLanguage(store('xx'))).toBeNull()
    expect(storedLanguage(store(null))).toBeNull()
    expect(storedLanguage(undefined)).toBeNull()
  })

  it('starts on the default stage, but only Stage 1-2 for a visitor', () => {
    expect(defaultStagesFor('Stage 2-3', true)).toEqual(['Stage 2-3'])
    expect(defaultStagesFor('Stage 2-3', false)).toEqual(['Stage 1-2'])
    expect(defaultStagesFor(undefined, true)).toEqual(['Stage 1-2'])
    expect(defaultStagesFor('Stage 1-2', false)).toEqual(['Stage 1-2'])
  })
})
