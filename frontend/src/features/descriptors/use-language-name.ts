import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import type { LanguageOption } from './languages.ts'

/**
 * A trainer or export language as the interface names it ('Französisch' in German), with the
 * `lang` to mark it with when that name is the language's own ('Français' in English).
 */
export function useLanguageName(): (option: LanguageOption) => {
  name: string
  lang: string | undefined
} {
  const { t } = useTranslation('descriptors')
  return useCallback(
    (option: LanguageOption) => {
      const name = t('languageName', { code: option.code })
      return { name, lang: name === option.name ? option.code : undefined }
    },
    [t],
  )
}
