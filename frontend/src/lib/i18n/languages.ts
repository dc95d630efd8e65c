/** The interface's languages: the trainer's five, and Japanese and Chinese where the vocabulary is. */
export const uiLanguages = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'es', name: 'Español' },
  { code: 'it', name: 'Italiano' },
  { code: 'ja', name: '日本語' },
  { code: 'zh', name: '中文' },
] as const

export type UiLanguage = (typeof uiLanguages)[number]['code']

export const fallbackLanguage: UiLanguage = 'en'

/** Where a user's explicit choice is kept (per browser; it outlives sign-out). */
/**
 * The catalogues every page draws (the header, its menus, sign-in, errors): in the first bundle
 * in English; each page's own come with its code (app/router.tsx).
 */
export const initialNamespaces = ['common', 'auth'] as const

export const uiLanguageKey = 'crv.uiLanguage'

export function isUiLanguage(value: unknown): value is UiLanguage {
  return uiLanguages.some((l) => l.code === value)
}

/**
 * The language to show: the user's stored choice, else the first of the browser's preferred
 * languages we have (by primary subtag: "de-AT" is German), else English.
 */
export function detectLanguage(
  stored: string | null,
  preferred: readonly string[],
): { language: UiLanguage; chosen: boolean } {
  if (isUiLanguage(stored)) return { language: stored, chosen: true }
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0]
    if (isUiLanguage(primary)) return { language: primary, chosen: false }
  }
  return { language: fallbackLanguage, chosen: false }
}
