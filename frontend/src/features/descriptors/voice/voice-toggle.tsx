import { FormControlLabel, Switch } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { VoiceSetting } from './voice-setting.ts'

/** The voice on/off switch (spec §2: 'AI Voice Assistant Active'). */
export function VoiceToggle({ voice }: { voice: VoiceSetting }) {
  const { t } = useTranslation('descriptors')
  return (
    <FormControlLabel
      control={
        <Switch
          checked={voice.enabled}
          onChange={(event) => voice.setEnabled(event.target.checked)}
        />
      }
      label={t('voice.active')}
    />
  )
}
