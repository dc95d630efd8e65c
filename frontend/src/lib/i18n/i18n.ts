import i18next from 'i18next'
import ICU from 'i18next-icu'
import { initReactI18next } from 'react-i18next'
import english from '../../locales/en/index.ts'
import {
  detectLanguage,
  fallbackLanguage,
  isUiLanguage,
  uiLanguages,
  uiLanguageKey,
  type UiLanguage,
} from './languages.ts'

type Catalogue = Record<string, string>

type Catalogues = Record<string, Catalogue>

// English ships in the first bundle (it is also every missing key's fallback); each other
// language is one chunk, fetched before the first render that needs it (and precached by the
// service worker, so every language works offline once the app is installed).
const others = import.meta.glob<Catalogues>(
  ['../../locales/*/index.ts', '!../../locales/en/index.ts'],
  {
    import: 'default',
  },
)

export const namespaces = Object.keys(english) as (keyof typeof english)[]

async function loadLanguage(language: UiLanguage): Promise<void> {
  if (language === fallbackLanguage || i18next.hasResourceBundle(language, 'common')) return
  const load = others[`../../locales/${language}/index.ts`]
  if (!load) return
  const catalogues = await load()
  for (const [ns, catalogue] of Object.entries(catalogues))
    i18next.addResourceBundle(language, ns, catalogue)
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
    .use(ICU)
    .use(initReactI18next)
    .init({
      lng: fallbackLanguage,
      fallbackLng: fallbackLanguage,
      supportedLngs: uiLanguages.map((l) => l.code),
      ns: namespaces,
      defaultNS: 'common',
      resources: { [fallbackLanguage]: english },
      partialBundledLanguages: true,
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
  await loadLanguage(language)
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
