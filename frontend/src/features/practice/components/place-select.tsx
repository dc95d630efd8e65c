import { FormControl, InputLabel, NativeSelect, OutlinedInput } from '@mui/material'
import { useId } from 'react'
import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * A candidate's place (1 = best match) as a number to choose: the system's own picker on a
 * phone, the arrow keys on a desktop. Its visible label says "Place"; what is read out names
 * the candidate, since every row has one.
 */
export function PlaceSelect({
  letter,
  place,
  count,
  onPlace,
  ref,
}: {
  letter: string
  place: number
  count: number
  onPlace: (place: number) => void
  ref?: Ref<HTMLSelectElement>
}) {
  const { t } = useTranslation('practice')
  const id = useId()
  const label = t('judge.place')
  return (
    <FormControl variant="outlined" size="small" sx={{ width: 96, flexShrink: 0 }}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        value={String(place)}
        onChange={(e) => onPlace(Number(e.target.value))}
        input={<OutlinedInput label={label} notched inputRef={ref} />}
        inputProps={{ id, 'aria-label': t('judge.placeOf', { letter }) }}
        sx={{ fontWeight: 600, fontSize: '1.125rem' }}
      >
        {Array.from({ length: count }, (_, i) => (
          <option key={i} value={i + 1}>
            {i + 1}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  )
}
