import type { Stage, TrainingLanguage } from '../../lib/api/generated.ts'
import { defaultStages, openStage } from './catalog.ts'
import { isTrainingLanguage, preferredLanguageKey } from './languages.ts'

type Store = Pick<Storage, 'getItem'>

/** The language this browser chose before, or null: then the administrator's default applies. */
export function storedLanguage(storage: Store | undefined): TrainingLanguage | null {
  try {
    const stored = storage?.getItem(preferredLanguageKey)
    return isTrainingLanguage(stored) ? stored : null
  } catch {
    return null
  }
}

/**
 * The stages the trainer starts with: the administrator's default stage (admin panel settings),
 * unless it needs sign-in and the visitor is signed out.
 */
export function defaultStagesFor(stage: Stage | undefined, signedIn: boolean): Stage[] {
  if (!stage || (stage !== openStage && !signedIn)) return [...defaultStages]
  return [stage]
}
