import { describe, expect, it } from 'vitest'
import { resumeMaxAgeMs, resumeStorageKey, saveResume, takeResume } from './sign-in-resume.ts'

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

describe('sign-in resume across a redirect', () => {
  it('gives the typed text back once, to the page that saved it', () => {
    const storage = memoryStorage()
    saveResume(storage, { key: 'custom-gestalt', draft: 'red balloon' }, 1000)
    expect(takeResume(storage, 'other-page', 2000)).toBeNull()
    expect(takeResume(storage, 'custom-gestalt', 2000)).toBe('red balloon')
    expect(takeResume(storage, 'custom-gestalt', 3000)).toBeNull()
  })

  it('forgets an intent from an abandoned attempt', () => {
    const storage = memoryStorage()
    saveResume(storage, { key: 'custom-gestalt', draft: 'old' }, 0)
    expect(takeResume(storage, 'other-page', resumeMaxAgeMs + 1)).toBeNull()
    expect(storage.items.has(resumeStorageKey)).toBe(false)
  })

  it('drops what it cannot read', () => {
    const storage = memoryStorage()
    storage.setItem(resumeStorageKey, '{not json')
    expect(takeResume(storage, 'custom-gestalt', 0)).toBeNull()
    expect(storage.items.has(resumeStorageKey)).toBe(false)
    storage.setItem(resumeStorageKey, JSON.stringify({ key: 'custom-gestalt' }))
    expect(takeResume(storage, 'custom-gestalt', 0)).toBeNull()
    expect(storage.items.has(resumeStorageKey)).toBe(false)
    expect(takeResume(undefined, 'custom-gestalt', 0)).toBeNull()
  })
})
