import { Autocomplete, Chip, TextField } from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchPracticeConceptsQuery } from '../api.ts'
import type { PracticeDescriptorEntry } from '../api.ts'
import type { Language } from '../../../lib/api/generated.ts'

type Option = { word: string; conceptId: string }

const wordOf = (entry: PracticeDescriptorEntry) => (typeof entry === 'string' ? entry : entry.word)

/**
 * One Stage II column: words as chips, suggested from the descriptor vocabulary of the column's
 * category in the viewer's language. A picked word keeps its concept id (scored exactly); a
 * typed one is matched by the server in any language.
 */
export function DescriptorColumn({
  label,
  category,
  language,
  value,
  onChange,
  readOnly,
}: {
  label: string
  category: string
  language: Language
  value: PracticeDescriptorEntry[]
  onChange: (entries: PracticeDescriptorEntry[]) => void
  readOnly: boolean
}) {
  const { t } = useTranslation('practice')
  const [input, setInput] = useState('')
  const [query, setQuery] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQuery(input.trim()), 200)
    return () => clearTimeout(timer)
  }, [input])
  const { data = [], isFetching } = useSearchPracticeConceptsQuery(
    readOnly ? skipToken : { q: query, language, category, limit: 12 },
  )
  const options: Option[] = data.map((c) => ({ word: c.word, conceptId: c.conceptId }))
  return (
    <Autocomplete<Option | string, true, false, true>
      multiple
      freeSolo
      readOnly={readOnly}
      options={options}
      loading={isFetching}
      filterOptions={(all) => all}
      value={value.map((entry) =>
        typeof entry === 'string' ? entry : { word: entry.word, conceptId: entry.conceptId ?? '' },
      )}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.word)}
      isOptionEqualToValue={(a, b) =>
        (typeof a === 'string' ? a : a.word) === (typeof b === 'string' ? b : b.word)
      }
      onChange={(_event, next) =>
        onChange(
          next
            .map((item): PracticeDescriptorEntry =>
              typeof item === 'string'
                ? item.trim().slice(0, 60)
                : item.conceptId
                  ? { word: item.word, conceptId: item.conceptId }
                  : item.word,
            )
            .filter((entry) => wordOf(entry).length > 0)
            .slice(0, 100),
        )
      }
      renderValue={(items, getItemProps) =>
        items.map((item, index) => {
          const { key, ...props } = getItemProps({ index })
          return (
            <Chip
              key={key}
              {...props}
              size="small"
              label={typeof item === 'string' ? item : item.word}
              variant={typeof item === 'string' ? 'outlined' : 'filled'}
            />
          )
        })
      }
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={readOnly ? '' : t('writeUp.typeWord')} />
      )}
    />
  )
}
