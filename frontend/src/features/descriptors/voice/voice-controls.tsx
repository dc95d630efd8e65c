import ClearIcon from '@mui/icons-material/Clear'
import RecordVoiceOverIcon from '@mui/icons-material/RecordVoiceOver'
import VolumeUpIcon from '@mui/icons-material/VolumeUp'
import { Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { Descriptor } from '../../../lib/api/generated.ts'
import { SteadyButton } from '../../../components/steady-button.tsx'
import type { VoiceAssistant } from './use-voice-assistant.ts'
import { VoiceToggle } from './voice-toggle.tsx'

/** Pronounce, Example Sentence, the sentence and Clear, under the word on show (spec §2). */
export function VoiceControls({
  voice,
  descriptor,
}: {
  voice: VoiceAssistant
  descriptor: Descriptor
}) {
  const { t } = useTranslation('descriptors')
  return (
    <Stack spacing={1.5}>
      <VoiceToggle voice={voice} />
      {voice.enabled ? (
        <>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <SteadyButton
              variant="outlined"
              onClick={() => void voice.pronounce(descriptor)}
              inactive={voice.isPlaying}
              startIcon={
                voice.isPlaying ? (
                  <CircularProgress size={18} color="inherit" aria-label={t('voice.playing')} />
                ) : (
                  <VolumeUpIcon />
                )
              }
              sx={{ flex: 1 }}
            >
              {voice.isPlaying ? t('voice.playingNow') : t('voice.pronounce')}
            </SteadyButton>
            <SteadyButton
              variant="outlined"
              onClick={() => void voice.exampleSentence(descriptor)}
              inactive={voice.isGenerating}
              startIcon={
                voice.isGenerating ? (
                  <CircularProgress size={18} color="inherit" aria-label={t('voice.generating')} />
                ) : (
                  <RecordVoiceOverIcon />
                )
              }
              sx={{ flex: 1 }}
            >
              {voice.isGenerating ? t('voice.generatingNow') : t('voice.exampleSentence')}
            </SteadyButton>
          </Stack>
          {voice.sentence ? (
            <Paper
              variant="outlined"
              sx={{ p: 2, display: 'flex', gap: 1, alignItems: 'flex-start' }}
            >
              <Box sx={{ flex: 1 }}>
                <Typography variant="caption" color="text.secondary" component="p">
                  {t('voice.sentenceCaption')}
                </Typography>
                <Typography data-testid="example-sentence" lang={descriptor.language}>
                  {voice.sentence}
                </Typography>
              </Box>
              <Button size="small" onClick={voice.clearSentence} startIcon={<ClearIcon />}>
                {t('voice.clear')}
              </Button>
            </Paper>
          ) : null}
        </>
      ) : null}
    </Stack>
  )
}
