import { Autocomplete, Chip, TextField, Typography } from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchPracticeConceptsQuery } from '../api.ts'
import type { PracticeDescriptorEntry } from '../api.ts'
import type { Language } from '../../../lib/api/generated.ts'

/** A suggestion; `from` names the language of the word the query matched, when not the column's. */
type Option = { word: string; conceptId: string; from?: { language: string; word: string } }

/** Lower case, accents off: as the server matches a query. */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * The word the query matched, when it is not the one in the column's language (the server
 * searches every language): so "blue" in a German column shows "blau" from English "blue".
 */
export function matchedElsewhere(
  query: string,
  language: string,
  words: Record<string, string>,
): { language: string; word: string } | undefined {
  const q = folded(query)
  if (!q) return undefined
  const matches = (word: string | undefined) => word !== undefined && folded(word).includes(q)
  if (matches(words[language])) return undefined
  const starts = Object.entries(words).find(([, word]) => folded(word).startsWith(q))
  const found = starts ?? Object.entries(words).find(([, word]) => matches(word))
  return found ? { language: found[0], word: found[1] } : undefined
}

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
  const options: Option[] = data.map((c) => {
    const from = matchedElsewhere(query, language, c.words)
    return { word: c.word, conceptId: c.conceptId, ...(from ? { from } : {}) }
  })
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
      renderOption={(props, option) => {
        const { key, ...rest } = props
        if (typeof option === 'string')
          return (
            <li key={key} {...rest}>
              {option}
            </li>
          )
        return (
          <li key={key} {...rest}>
            <span>{option.word}</span>
            {option.from && (
              <Typography
                component="span"
                variant="body2"
                color="text.secondary"
                sx={{ ml: 1 }}
                lang={option.from.language}
              >
                {t('writeUp.suggestionFrom', {
                  language: option.from.language.toUpperCase(),
                  word: option.from.word,
                })}
              </Typography>
            )}
          </li>
        )
      }}
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
