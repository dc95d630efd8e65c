import { useSyncExternalStore } from 'react'
import type { Language } from '../../lib/api/generated.ts'
import { currentUiLanguage } from '../../lib/i18n/index.ts'

const BY_TEXT = 'crv-practice-judge-by-text'
const LANGUAGES: Language[] = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh']

const storage = (): Storage | null => {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** Whether the viewer judges by the candidates' tags instead of their pictures. */
export const judgeByText = () => storage()?.getItem(BY_TEXT) === 'true'

const byTextListeners = new Set<() => void>()
export function setJudgeByText(on: boolean) {
  storage()?.setItem(BY_TEXT, String(on))
  for (const listener of byTextListeners) listener()
}
function subscribeByText(listener: () => void) {
  byTextListeners.add(listener)
  // Changed in another tab: the 'storage' event.
  window.addEventListener('storage', listener)
  return () => {
    byTextListeners.delete(listener)
    window.removeEventListener('storage', listener)
  }
}

/**
 * The description-only preference, kept for the next session: every control that shows or
 * switches it (the start page, the lock, the judging) draws the same value.
 */
export function useJudgeByText(): [boolean, (on: boolean) => void] {
  return [useSyncExternalStore(subscribeByText, judgeByText, () => false), setJudgeByText]
}

/**
 * The language of a new write-up's suggestions: the interface language chosen in the app (all
 * seven are the vocabulary's), never the browser's when the user chose another.
 */
export function practiceLanguage(): Language {
  const ui = currentUiLanguage()
  return (LANGUAGES as string[]).includes(ui) ? (ui as Language) : 'en'
}

const CITY = 'crv-practice-city'
/** The city the viewer records sessions' sidereal time for, when not the browser's position. */
export const savedCity = () => storage()?.getItem(CITY) ?? ''
export const setSavedCity = (city: string) => storage()?.setItem(CITY, city)
