import type { Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { OutlinedNativeSelect } from '../../../components/outlined-field.tsx'

/**
 * A candidate's place (1 = best match) as a number to choose: the system's own picker on a
 * phone, the arrow keys on a desktop. Its visible label says "Place"; what is read out names
 * the candidate, since every candidate has one.
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
  return (
    <OutlinedNativeSelect
      label={t('judge.place')}
      ariaLabel={t('judge.placeOf', { letter })}
      selectRef={ref}
      size="small"
      value={String(place)}
      onChange={(e) => onPlace(Number(e.target.value))}
      sx={{ width: 96, flexShrink: 0, '& select': { fontWeight: 600, fontSize: '1.125rem' } }}
    >
      {Array.from({ length: count }, (_, i) => (
        <option key={i} value={i + 1}>
          {i + 1}
        </option>
      ))}
    </OutlinedNativeSelect>
  )
}
