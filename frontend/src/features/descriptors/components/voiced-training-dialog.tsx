import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import type { LanguageOption } from '../languages.ts'
import type { VoiceSetting } from '../voice/voice-setting.ts'
import { useVoiceAssistant } from '../voice/use-voice-assistant.ts'
import { VoiceControls } from '../voice/voice-controls.tsx'
import { TrainingDialog, type TrainingDialogProps } from './training-dialog.tsx'

/**
 * The training session's dialog with the voice assistant under the word: each new word is
 * spoken (spec §9). The trainer loads it on first use, with the assistant's code.
 */
export function VoicedTrainingDialog({
  voice: setting,
  ...props
}: Omit<TrainingDialogProps, 'wordAids' | 'language'> & {
  language: LanguageOption<TrainingLanguage>
  voice: VoiceSetting
}) {
  const { session } = props
  const voice = useVoiceAssistant({
    setting,
    language: props.language.code,
    descriptor: session.loading ? null : session.descriptor,
    open: session.running,
    speakNewWords: true,
  })
  return (
    <TrainingDialog
      {...props}
      wordAids={(descriptor) => <VoiceControls voice={voice} descriptor={descriptor} />}
    />
  )
}
