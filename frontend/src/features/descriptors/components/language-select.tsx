import { MenuItem, TextField } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { Flag } from '../../../components/flag.tsx'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import { useSelectDisplayProps } from '../../../lib/use-committed.ts'
import { isTrainingLanguage, trainingLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'

type LanguageSelectProps = {
  value: TrainingLanguage
  onChange: (language: TrainingLanguage) => void
}

/**
 * The trainer's language: English, German, French, Spanish or Italian, with their flags, named
 * in the interface language.
 */
export function LanguageSelect({ value, onChange }: LanguageSelectProps) {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  const displayProps = useSelectDisplayProps()
  return (
    <TextField
      select
      size="small"
      label={t('languageSelect.label')}
      value={value}
      onChange={(event) => {
        if (isTrainingLanguage(event.target.value)) onChange(event.target.value)
      }}
      sx={{ minWidth: 160 }}
      slotProps={{ select: { SelectDisplayProps: displayProps } }}
    >
      {trainingLanguages.map((language) => {
        const { name, lang } = languageName(language)
        return (
          <MenuItem key={language.code} value={language.code} lang={lang}>
            <Flag code={language.code} />
            &nbsp;{name}
          </MenuItem>
        )
      })}
    </TextField>
  )
}
