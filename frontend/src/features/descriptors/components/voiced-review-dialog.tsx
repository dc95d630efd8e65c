import type { TrainingLanguage } from '../../../lib/api/generated.ts'
import type { LanguageOption } from '../languages.ts'
import type { VoiceSetting } from '../voice/voice-setting.ts'
import { useVoiceAssistant } from '../voice/use-voice-assistant.ts'
import { VoiceControls } from '../voice/voice-controls.tsx'
import { ReviewDialog, type ReviewDialogProps } from './review-dialog.tsx'

/**
 * The review's dialog with the voice assistant under the word (spoken on request only). The
 * trainer loads it on first use, with the assistant's code.
 */
export function VoicedReviewDialog({
  voice: setting,
  ...props
}: Omit<ReviewDialogProps, 'wordAids' | 'language'> & {
  language: LanguageOption<TrainingLanguage>
  voice: VoiceSetting
}) {
  const { session } = props
  const voice = useVoiceAssistant({
    setting,
    language: props.language.code,
    descriptor: session.cards[0]?.descriptor ?? null,
    open: session.open,
    speakNewWords: false,
  })
  return (
    <ReviewDialog
      {...props}
      wordAids={(descriptor) => <VoiceControls voice={voice} descriptor={descriptor} />}
    />
  )
}
