import { Autocomplete, MenuItem, TextField } from '@mui/material'
import { skipToken } from '@reduxjs/toolkit/query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useSearchPracticeConceptsQuery } from '../api.ts'
import type { PracticeTarget } from '../api.ts'
import { practiceLanguage } from '../preferences.ts'

// The fields a target is described with, shared by the admin page's forms and contributions.

export type Licence = PracticeTarget['licence']

/**
 * The licences of the allowlist. A label is the licence's own name (kept in every language), a
 * key of `targets.licences`, or the name with the translated "(attribution)".
 */
const LICENCES: { value: Licence; name: string; key?: 'publicDomain' | 'own'; credit?: true }[] = [
  { value: 'CC0-1.0', name: 'CC0 1.0' },
  { value: 'public-domain', name: '', key: 'publicDomain' },
  { value: 'own', name: '', key: 'own' },
  { value: 'CC-BY-4.0', name: 'CC BY 4.0', credit: true },
  { value: 'CC-BY-3.0', name: 'CC BY 3.0', credit: true },
  { value: 'CC-BY-2.5', name: 'CC BY 2.5', credit: true },
  { value: 'CC-BY-2.0', name: 'CC BY 2.0', credit: true },
  { value: 'CC-BY-SA-4.0', name: 'CC BY-SA 4.0', credit: true },
  { value: 'CC-BY-SA-3.0', name: 'CC BY-SA 3.0', credit: true },
  { value: 'CC-BY-SA-2.5', name: 'CC BY-SA 2.5', credit: true },
  { value: 'CC-BY-SA-2.0', name: 'CC BY-SA 2.0', credit: true },
]

/** CC BY and CC BY-SA are used only with the author's credit. */
export const needsAttribution = (licence: Licence) => licence.startsWith('CC-BY')

/** A licence's name in the interface's language. */
export function licenceLabel(t: TFunction<'practice'>, licence: Licence): string {
  const l = LICENCES.find((x) => x.value === licence)
  if (!l) return licence
  if (l.key) return t(`targets.licences.${l.key}`)
  return l.credit ? t('targets.licences.withAttribution', { name: l.name }) : l.name
}

/** The licences (all, or those of `only`) as a Select's items (MUI wants direct children). */
export function licenceOptions(t: TFunction<'practice'>, only?: readonly Licence[]) {
  return LICENCES.filter((l) => !only || only.includes(l.value)).map((l) => (
    <MenuItem key={l.value} value={l.value}>
      {licenceLabel(t, l.value)}
    </MenuItem>
  ))
}

/** Tags as concept ids, searched in the vocabulary in any language. */
export function TagPicker({
  value,
  onChange,
  label,
}: {
  value: string[]
  onChange: (tags: string[]) => void
  label?: string
}) {
  const { t } = useTranslation('practice')
  const [input, setInput] = useState('')
  const [query, setQuery] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQuery(input.trim()), 200)
    return () => clearTimeout(timer)
  }, [input])
  const language = practiceLanguage()
  const { data = [] } = useSearchPracticeConceptsQuery(
    query ? { q: query, language, limit: 15 } : skipToken,
  )
  // The chosen tags' labels are kept: the next search replaces the options they came from.
  const [chosenLabels, setChosenLabels] = useState<Record<string, string>>({})
  const labels = new Map([
    ...Object.entries(chosenLabels),
    ...data.map((c): [string, string] => [c.conceptId, `${c.word} (${c.conceptId})`]),
  ])
  const choose = (next: string[]) => {
    const named = next.flatMap((id) => {
      const label = labels.get(id)
      return label ? [[id, label] as const] : []
    })
    setChosenLabels((kept) => ({ ...kept, ...Object.fromEntries(named) }))
    onChange(next.slice(0, 50))
  }
  return (
    <Autocomplete
      multiple
      options={data.map((c) => c.conceptId)}
      filterOptions={(all) => all}
      value={value}
      inputValue={input}
      onInputChange={(_e, next) => setInput(next)}
      onChange={(_e, next) => choose(next)}
      getOptionLabel={(id) => labels.get(id) ?? id}
      renderInput={(params) => <TextField {...params} label={label ?? t('targets.tags')} />}
    />
  )
}
