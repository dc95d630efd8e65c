import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { BackendModule, FlatNamespace } from 'i18next'
import englishAuth from '../../locales/en/auth.json'
import englishCommon from '../../locales/en/common.json'
import { icuFormat } from './icu-plugin.ts'
import {
  detectLanguage,
  fallbackLanguage,
  initialNamespaces,
  isUiLanguage,
  uiLanguages,
  uiLanguageKey,
  type UiLanguage,
} from './languages.ts'

type Catalogue = Record<string, unknown>

// Each page's own catalogues, and every catalogue of another language, are a small chunk each:
// loaded with the page's code (app/router.tsx) or before a language is shown, and precached by
// the service worker, so every page works offline in every language once the app is installed.
const catalogues = import.meta.glob<Catalogue>('../../locales/*/*.json', { import: 'default' })

const chunks: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, done) {
    const load = catalogues[`../../locales/${language}/${namespace}.json`]
    if (!load) return done(new Error(`no catalogue ${language}/${namespace}`), false)
    load().then(
      (catalogue) => done(null, catalogue),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), false),
    )
  },
}

/** Loads `namespaces` in the interface's language (and English); resolves when they can render. */
export function loadNamespaces(namespaces: readonly FlatNamespace[]): Promise<void> {
  return i18next.loadNamespaces([...namespaces])
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}

function showLanguage(language: UiLanguage): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language
}

/**
 * The chosen language, also as a cookie: the server sends a first visit's pre-rendered page in
 * it (gateway/src/shells.ts), as the app will show it. A year, like the stored choice.
 */
function rememberForServer(language: UiLanguage): void {
  if (typeof document === 'undefined') return
  document.cookie = `crv-lang=${language}; Path=/; Max-Age=31536000; SameSite=Lax`
}

/** Sets i18next up in the browser's (or the stored) language; resolves when it can render. */
export async function initI18n(): Promise<void> {
  const { language, chosen } = detectLanguage(
    storage()?.getItem(uiLanguageKey) ?? null,
    typeof navigator === 'undefined' ? [] : navigator.languages,
  )
  await i18next
    .use(chunks)
    .use(icuFormat)
    .use(initReactI18next)
    .init({
      lng: fallbackLanguage,
      fallbackLng: fallbackLanguage,
      supportedLngs: uiLanguages.map((l) => l.code),
      ns: [...initialNamespaces],
      defaultNS: 'common',
      resources: { [fallbackLanguage]: { common: englishCommon, auth: englishAuth } },
      partialBundledLanguages: true,
      // Text looked up outside React (errors, toasts, formats) in a catalogue not yet loaded
      // would show its key: said loudly (the browser tests count console errors). What React
      // draws is held to its page's list by app/route-namespaces.test.ts.
      saveMissing: true,
      missingKeyHandler: (languages, namespace, key) => {
        if (!i18next.hasLoadedNamespace(namespace))
          console.error(`Drawn before its catalogue was loaded: ${namespace}:${key}`, languages)
      },
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    })
  await changeUiLanguage(language, { remember: false })
  if (chosen) rememberForServer(language)
}

/** Switches the interface; with `remember` the choice is kept for this browser. */
export async function changeUiLanguage(
  language: UiLanguage,
  { remember }: { remember: boolean } = { remember: true },
): Promise<void> {
  // Loads the language's catalogues of every namespace in use before the switch.
  await i18next.changeLanguage(language)
  showLanguage(language)
  if (remember) {
    storage()?.setItem(uiLanguageKey, language)
    rememberForServer(language)
  }
}

/** The language the interface shows now. */
export function currentUiLanguage(): UiLanguage {
  const language = i18next.resolvedLanguage ?? i18next.language
  return isUiLanguage(language) ? language : fallbackLanguage
}

/** Whether the user chose the language (rather than the browser's preference deciding it). */
export function uiLanguageWasChosen(): boolean {
  return isUiLanguage(storage()?.getItem(uiLanguageKey))
}

export { i18next }
