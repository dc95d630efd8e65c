import { Box, Chip, CircularProgress, IconButton } from '@mui/material'
import type { ReactNode } from 'react'
import { Tip } from '../../../components/tip.tsx'

type WordChipAction = {
  /** What the button does, for its tooltip and accessible name, e.g. 'Hide Stein'. */
  label: string
  icon: ReactNode
  onClick: () => void
  busy?: boolean
  disabled?: boolean
}

type WordChipProps = {
  word: string
  /** A short note after the word, e.g. 'pending' or a language code. */
  note?: string
  /** Greyed and struck through: a word the user has hidden. */
  muted?: boolean
  action?: WordChipAction
}

/** One descriptor as a chip, with at most one action as a real, focusable button. */
export function WordChip({ word, note, muted = false, action }: WordChipProps) {
  return (
    <Chip
      component="li"
      variant={muted ? 'outlined' : 'filled'}
      sx={{
        maxWidth: '100%',
        pr: action ? 0.25 : undefined,
        opacity: muted ? 0.7 : 1,
        '& .MuiChip-label': {
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          pr: action ? 0 : undefined,
        },
      }}
      label={
        <>
          <Box
            component="span"
            sx={{
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              textDecoration: muted ? 'line-through' : 'none',
            }}
          >
            {word}
          </Box>
          {note ? (
            <Box component="span" sx={{ fontSize: '0.75em', color: 'text.secondary' }}>
              {note}
            </Box>
          ) : null}
          {action ? (
            <Tip title={action.label}>
              <span>
                <IconButton
                  size="small"
                  aria-label={action.label}
                  onClick={action.onClick}
                  disabled={action.disabled === true || action.busy === true}
                  sx={{ p: 0.5, ml: 0.25 }}
                >
                  {action.busy ? <CircularProgress size={16} aria-hidden /> : action.icon}
                </IconButton>
              </span>
            </Tip>
          ) : null}
        </>
      }
    />
  )
}

/** A wrapping list of word chips. */
export function WordList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}
    >
      {children}
    </Box>
  )
}
