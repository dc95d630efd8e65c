/** Languages a speech engine can speak: the five trained ones plus the vocabulary's ja and zh. */
export const speechLanguages = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
export type SpeechLanguage = (typeof speechLanguages)[number]

/** The trainer's languages: the only ones the API speaks and writes sentences in (spec §9). */
export const trainingLanguages = ['en', 'de', 'fr', 'es', 'it'] as const
export type TrainingLanguage = (typeof trainingLanguages)[number]

export const isTrainingLanguage = (value: unknown): value is TrainingLanguage =>
  typeof value === 'string' && (trainingLanguages as readonly string[]).includes(value)
