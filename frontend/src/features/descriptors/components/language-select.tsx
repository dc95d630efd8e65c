import { MenuItem, TextField } from '@mui/material'
import type { HTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { Flag } from '../../../components/flag.tsx'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import { useCommitted } from '../../../lib/use-committed.ts'
import { isTrainingLanguage, trainingLanguages } from '../languages.ts'
import { useLanguageName } from '../use-language-name.ts'

type LanguageSelectProps = {
  value: TrainingLanguage
  onChange: (language: TrainingLanguage) => void
}

const withoutRef = { ref: undefined } as HTMLAttributes<HTMLDivElement>

/**
 * The trainer's language: English, German, French, Spanish or Italian, with their flags, named
 * in the interface language.
 */
export function LanguageSelect({ value, onChange }: LanguageSelectProps) {
  const { t } = useTranslation('descriptors')
  const languageName = useLanguageName()
  // MUI's select keeps its element in a state set by a ref, and a state set inside the commit
  // that takes a pre-rendered page over is drawn in that same task, after all the page's pending
  // effects (issue [12]). Until this select has been committed once its element is not handed
  // over (the display's props are spread over that ref); it opens once it is, a task later.
  const committed = useCommitted()
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
      slotProps={{ select: { SelectDisplayProps: committed ? undefined : withoutRef } }}
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
