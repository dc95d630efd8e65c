import { Chip, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'

/**
 * A candidate described by its tags alone (the vocabulary's concept ids, as the reveal lists
 * what matched), for a viewer who judges without seeing the wrong pictures.
 */
export function CandidateTags({ letter, tags }: { letter: string; tags: string[] }) {
  const { t } = useTranslation('practice')
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
          <Chip size="small" variant="outlined" label={tag} />
        </li>
      ))}
    </Stack>
  )
}
