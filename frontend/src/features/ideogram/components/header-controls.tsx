import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import StopIcon from '@mui/icons-material/Stop'
import { Badge, Chip, IconButton } from '@mui/material'
import { HeaderSlot } from '../../../components/layout/index.ts'
import { Tip } from '../../../components/tip.tsx'
import { useTranslation } from 'react-i18next'
import type { IdeogramTrainer } from '../use-ideogram-trainer.ts'
import { ModeToggle } from './mode-toggle.tsx'

const visuallyHiddenOnPhone = {
  '@media (max-width: 599.95px)': {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
} as const

/** The header's part of the page: mode toggle, play/stop and the 'N word(s) selected' badge. */
export function HeaderControls({ trainer }: { trainer: IdeogramTrainer }) {
  const { isPlaying, canPlay, togglePlay, selectedCount, mode, setMode } = trainer
  const { t } = useTranslation('ideogram')
  return (
    <HeaderSlot>
      <ModeToggle
        mode={mode}
        onChange={setMode}
        size="small"
        color="standard"
        sx={{
          display: { xs: 'none', md: 'inline-flex' },
          bgcolor: 'rgba(255,255,255,0.12)',
          '& .MuiToggleButton-root': { color: 'inherit', py: 0.25 },
          '& .Mui-selected': { bgcolor: 'rgba(255,255,255,0.24) !important' },
        }}
      />
      <Tip title={canPlay || isPlaying ? '' : t('header.selectOne')}>
        <span>
          <IconButton
            color="inherit"
            aria-label={isPlaying ? t('header.stop') : t('header.play')}
            onClick={togglePlay}
            disabled={!canPlay && !isPlaying}
          >
            {/* On a phone the header has no room for the badge: the count rides on the button. */}
            <Badge
              badgeContent={selectedCount}
              color="secondary"
              max={99}
              aria-hidden
              sx={{ '& .MuiBadge-badge': { display: { xs: 'flex', sm: 'none' } } }}
            >
              {isPlaying ? <StopIcon /> : <PlayArrowIcon />}
            </Badge>
          </IconButton>
        </span>
      </Tip>
      <Chip
        size="small"
        label={t('header.selected', { count: selectedCount })}
        aria-live="polite"
        sx={{
          color: 'inherit',
          bgcolor: 'rgba(255,255,255,0.16)',
          maxWidth: '100%',
          // Read out on a phone as well, where only the count on the play button shows.
          ...visuallyHiddenOnPhone,
        }}
      />
    </HeaderSlot>
  )
}
