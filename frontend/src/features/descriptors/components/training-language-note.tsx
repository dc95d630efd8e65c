import { Alert, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import type { TrainerLanguageReason } from '../languages.ts'

/** A language's name as the interface words it in a sentence ('Japanisch', 'anglais', '英語'). */
function nameIn(interfaceLanguage: string, code: string): string {
  try {
    return new Intl.DisplayNames([interfaceLanguage], { type: 'language' }).of(code) ?? code
  } catch {
    return code
  }
}

/**
 * Which language the trainer trains in and why: chosen, the interface's, the default, or the
 * default because the interface's language (Japanese, Chinese) has no descriptors, said as a
 * notice naming the menu to choose another in.
 */
export function TrainingLanguageNote({
  language,
  reason,
  interfaceLanguage,
}: {
  language: TrainingLanguage
  reason: TrainerLanguageReason
  interfaceLanguage: string | undefined
}) {
  const { t, i18n } = useTranslation('descriptors')
  const trained = nameIn(i18n.language, language)
  if (reason === 'notOffered' && interfaceLanguage) {
    return (
      <Alert severity="info" sx={{ mt: 2 }}>
        {t('trainer.trainingLanguage.notOffered', {
          language: trained,
          interfaceLanguage: nameIn(i18n.language, interfaceLanguage),
          menu: t('languageSelect.label'),
        })}
      </Alert>
    )
  }
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
      {t(`trainer.trainingLanguage.${reason === 'notOffered' ? 'default' : reason}`, {
        language: trained,
      })}
    </Typography>
  )
}
