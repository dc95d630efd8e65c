import { MenuItem, TextField } from '@mui/material'
import { Flag } from '../../../components/flag.tsx'
import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import { isTrainingLanguage, trainingLanguages } from '../languages.ts'

type LanguageSelectProps = {
  value: TrainingLanguage
  onChange: (language: TrainingLanguage) => void
}

/** The trainer's language: English, German, French, Spanish or Italian, with their flags. */
export function LanguageSelect({ value, onChange }: LanguageSelectProps) {
  return (
    <TextField
      select
      size="small"
      label="Language"
      value={value}
      onChange={(event) => {
        if (isTrainingLanguage(event.target.value)) onChange(event.target.value)
      }}
      sx={{ minWidth: 160 }}
    >
      {trainingLanguages.map((language) => (
        <MenuItem key={language.code} value={language.code} lang={language.code}>
          <Flag code={language.code} />
          &nbsp;{language.name}
        </MenuItem>
      ))}
    </TextField>
  )
}
