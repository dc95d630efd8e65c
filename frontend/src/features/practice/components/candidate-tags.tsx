import { Chip, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { useConceptWords } from '../concept-words.ts'

/**
 * A candidate described by its tags alone (the vocabulary's concepts, in the interface language),
 * for a viewer who judges without seeing the wrong pictures.
 */
export function CandidateTags({ letter, tags }: { letter: string; tags: string[] }) {
  const { t } = useTranslation('practice')
  const wordOf = useConceptWords(tags)
  if (tags.length === 0) return <Typography color="text.secondary">{t('judge.noTags')}</Typography>
  return (
    <Stack
      component="ul"
      direction="row"
      aria-label={t('judge.tagsOf', { letter })}
      sx={{ flexWrap: 'wrap', gap: 0.75, listStyle: 'none', p: 0, m: 0 }}
    >
      {tags.map((tag) => (
        <li key={tag}>
          <Chip size="small" variant="outlined" label={wordOf(tag)} />
        </li>
      ))}
    </Stack>
  )
}
