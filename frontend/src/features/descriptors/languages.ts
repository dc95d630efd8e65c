import type { Language, TrainingLanguage } from '../../lib/api/generated.ts'

export type LanguageOption<Code extends Language = Language> = {
  code: Code
  /** The language's own name, as a speaker of it would look for it. */
  name: string
  flag: string
}

export const trainingLanguages: readonly LanguageOption<TrainingLanguage>[] = [
  { code: 'en', name: 'English', flag: '🇬🇧' },
  { code: 'de', name: 'Deutsch', flag: '🇩🇪' },
  { code: 'fr', name: 'Français', flag: '🇫🇷' },
  { code: 'es', name: 'Español', flag: '🇪🇸' },
  { code: 'it', name: 'Italiano', flag: '🇮🇹' },
]

export const exportLanguages: readonly LanguageOption[] = [
  ...trainingLanguages,
  { code: 'ja', name: '日本語', flag: '🇯🇵' },
  { code: 'zh', name: '中文', flag: '🇨🇳' },
]

export const defaultLanguage: TrainingLanguage = 'en'

/** Browser storage key of the trainer's language (spec §9). */
export const preferredLanguageKey = 'preferredLanguage'

type Store = Pick<Storage, 'getItem' | 'setItem'>

export function isTrainingLanguage(value: unknown): value is TrainingLanguage {
  return trainingLanguages.some((l) => l.code === value)
}

type TrainerLanguageInput = {
  choice: TrainingLanguage | null | undefined
  interfaceLanguage: string | null | undefined
  adminDefault: TrainingLanguage | null | undefined
}

/**
 * Why the trainer trains in its language, as the page tells the user: they chose it; it is the
 * interface's; it is the default (the administrator's, or English) under an English interface;
 * or the interface's language has no descriptors (Japanese, Chinese) and the default stands in.
 */
export type TrainerLanguageReason = 'chosen' | 'interface' | 'default' | 'notOffered'

/**
 * The language the trainer trains in, and why: the user's explicit choice in the trainer if any;
 * else the interface language when the trainer offers it (English aside: an English interface
 * leaves the choice to the administrator); else the administrator's default; else English.
 * `interfaceLanguage` comes back as its bare code (ja for ja-JP).
 */
export function trainerLanguageWithReason({
  choice,
  interfaceLanguage,
  adminDefault,
}: TrainerLanguageInput): {
  language: TrainingLanguage
  reason: TrainerLanguageReason
  interfaceLanguage: string | undefined
} {
  const ui = interfaceLanguage?.toLowerCase().split('-')[0] || undefined
  if (choice) return { language: choice, reason: 'chosen', interfaceLanguage: ui }
  if (ui !== defaultLanguage && isTrainingLanguage(ui))
    return { language: ui, reason: 'interface', interfaceLanguage: ui }
  const language = adminDefault ?? defaultLanguage
  const reason =
    ui !== undefined && !isTrainingLanguage(ui)
      ? 'notOffered'
      : language === ui
        ? 'interface'
        : 'default'
  return { language, reason, interfaceLanguage: ui }
}

/** The language the trainer trains in (see trainerLanguageWithReason). */
export function trainerLanguage(input: TrainerLanguageInput): TrainingLanguage {
  return trainerLanguageWithReason(input).language
}

export function readPreferredLanguage(storage: Store | undefined): TrainingLanguage {
  try {
    const stored = storage?.getItem(preferredLanguageKey)
    return isTrainingLanguage(stored) ? stored : defaultLanguage
  } catch {
    return defaultLanguage
  }
}

export function savePreferredLanguage(storage: Store | undefined, language: TrainingLanguage) {
  try {
    storage?.setItem(preferredLanguageKey, language)
  } catch {
    // Without storage the choice lasts for this visit only.
  }
}

/** The tab's local storage, or nothing where the browser refuses it. */
export function localStorageOrNothing(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}
