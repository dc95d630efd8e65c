import DeleteIcon from '@mui/icons-material/Delete'
import { Box, IconButton, Paper, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { FrequencyLevel, IdeogramWord } from '../gestalts.ts'
import { GestaltCard, gridSx } from './gestalt-grid.tsx'

type CustomWordListProps = {
  words: IdeogramWord[]
  onToggle: (id: string) => void
  onLevel: (id: string, level: FrequencyLevel) => void
  onDelete: (word: IdeogramWord) => void
}

/** The user's custom gestalts: selectable like the basic ones, each with a delete button. */
export function CustomWordList({ words, onToggle, onLevel, onDelete }: CustomWordListProps) {
  const { t } = useTranslation('ideogram')
  const titleId = useId()
  if (words.length === 0) return null
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} variant="h6" component="h2" gutterBottom>
        {t('customList.title')}
      </Typography>
      <Box sx={gridSx}>
        {words.map((word) => (
          <GestaltCard
            key={word.id}
            word={word}
            onToggle={onToggle}
            onLevel={onLevel}
            action={
              <IconButton
                aria-label={t('customList.delete', { name: word.name })}
                size="small"
                onClick={() => onDelete(word)}
                sx={{ mr: -1 }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            }
          />
        ))}
      </Box>
    </Paper>
  )
}
