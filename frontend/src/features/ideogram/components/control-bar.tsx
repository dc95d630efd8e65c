import PauseIcon from '@mui/icons-material/Pause'
import PlayArrowIcon from '@mui/icons-material/PlayArrow'
import VolumeUpIcon from '@mui/icons-material/VolumeUp'
import {
  Box,
  Chip,
  IconButton,
  Paper,
  Slider,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material'
import { useTranslation } from 'react-i18next'
import { OutlinedNativeSelect } from '../../../components/outlined-field.tsx'
import { speeds, type SpeedKey } from '../../../lib/audio/speeds.ts'
import type { IdeogramTrainer } from '../use-ideogram-trainer.ts'

/** The bottom bar: play/pause, the speeds of spec §9 and the volume (0–100 in steps of 10). */
export function ControlBar({ trainer }: { trainer: IdeogramTrainer }) {
  const { isPlaying, audioFailing, canPlay, togglePlay, mode, speed, setSpeed, volume, setVolume } =
    trainer
  const joined = mode === 'joined'
  const { t } = useTranslation('ideogram')
  return (
    <Paper
      component="section"
      aria-label={t('controls.region')}
      elevation={8}
      square
      sx={{ position: 'fixed', left: 0, right: 0, bottom: 0, zIndex: 'appBar', px: 2, py: 1 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, maxWidth: 'lg', mx: 'auto' }}>
        <IconButton
          color="primary"
          size="large"
          aria-label={isPlaying ? t('controls.pause') : t('controls.play')}
          onClick={togglePlay}
          disabled={!canPlay && !isPlaying}
          sx={{ bgcolor: 'action.hover' }}
        >
          {isPlaying ? <PauseIcon /> : <PlayArrowIcon />}
        </IconButton>
        {audioFailing ? (
          <Chip
            role="status"
            color="error"
            variant="outlined"
            label={t('controls.audioFailing')}
            sx={{ flexShrink: 0 }}
          />
        ) : null}
        {/* On a phone the nine speeds are a list in the system's own picker; from a tablet up,
            buttons. Both are drawn and CSS shows one, so a pre-rendered page is right on any
            screen. */}
        <Box sx={{ display: { xs: 'flex', sm: 'none' }, flexGrow: 1, minWidth: 0 }}>
          <OutlinedNativeSelect
            fullWidth
            size="small"
            label={t('controls.speed')}
            value={joined ? 'auto' : speed}
            disabled={joined}
            onChange={(event) => setSpeed(event.target.value as SpeedKey)}
          >
            {joined ? <option value="auto">{t('controls.auto')}</option> : null}
            {speeds.map((s) => (
              <option key={s.key} value={s.key}>
                {t(`speeds.${s.key}`)}
              </option>
            ))}
          </OutlinedNativeSelect>
        </Box>
        <Box
          sx={{ display: { xs: 'none', sm: 'block' }, flexGrow: 1, minWidth: 0, overflowX: 'auto' }}
        >
          {joined ? (
            <Chip label={t('controls.auto')} aria-label={t('controls.speedAuto')} sx={{ mr: 1 }} />
          ) : null}
          <ToggleButtonGroup
            exclusive
            size="small"
            value={joined ? null : speed}
            disabled={joined}
            aria-label={t('controls.speed')}
            onChange={(_event, next: SpeedKey | null) => {
              if (next) setSpeed(next)
            }}
            sx={{ flexWrap: 'nowrap' }}
          >
            {speeds.map((s) => (
              <ToggleButton key={s.key} value={s.key} sx={{ whiteSpace: 'nowrap', px: 1.25 }}>
                {t(`speeds.${s.key}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        <Stack
          direction="row"

          sx={{ alignItems: 'center', gap: 1, width: { xs: 110, sm: 180 }, flexShrink: 0 }}
        >
          <VolumeUpIcon fontSize="small" color="action" />
          <Slider
            aria-label={t('controls.volume')}
            value={volume}
            min={0}
            max={100}
            step={10}
            marks
            valueLabelDisplay="auto"
            onChange={(_event, value) => setVolume(value)}
          />
        </Stack>
      </Stack>
    </Paper>
  )
}
