import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useToast } from '../../../components/toast/index.ts'
import type { Descriptor, TrainingLanguage } from '../../../lib/api/generated.ts'
import { useGenerateSentenceWithSpeechMutation, useSynthesizeSpeechMutation } from './api.ts'
import { base64ToArrayBuffer, playMp3, stopPlayback } from './audio-player.ts'
import type { VoiceSetting } from './voice-setting.ts'

/** Spec §9: the word is spoken this long after it appears. */
export const autoPronounceDelayMs = 500

export type VoiceAssistant = VoiceSetting & {
  isPlaying: boolean
  isGenerating: boolean
  sentence: string | null
  pronounce: (descriptor: Descriptor) => Promise<void>
  exampleSentence: (descriptor: Descriptor) => Promise<void>
  clearSentence: () => void
}

/**
 * The trainer's AI audio state (spec §4): enabled, isPlaying, isGenerating, currentSentence,
 * for the word a dialog shows (`descriptor`). A new word clears the sentence; with
 * `speakNewWords` (training) it is pronounced after 500 ms, unless voice is off or something is
 * playing. Closing the dialog (`open` false) silences it. The switch itself is the page's
 * (`setting`), shared by the page and its dialogs.
 */
export function useVoiceAssistant(options: {
  setting: VoiceSetting
  language: TrainingLanguage
  descriptor: Descriptor | null
  open: boolean
  speakNewWords: boolean
}): VoiceAssistant {
  const { setting, language, descriptor, open, speakNewWords } = options
  const { enabled, setEnabled } = setting
  const { toast } = useToast()
  const { t } = useTranslation('descriptors')
  const [isPlaying, setPlaying] = useState(false)
  const [isGenerating, setGenerating] = useState(false)
  // Kept with the word it was written for: a new word (Next, Start) shows no sentence.
  const [written, setWritten] = useState<{ wordId: number; text: string } | null>(null)
  const playing = useRef(false)
  // The word the latest answer belongs to: a late answer for an earlier word is dropped.
  const wordId = useRef<number | null>(null)
  const [synthesize] = useSynthesizeSpeechMutation()
  const [generate] = useGenerateSentenceWithSpeechMutation()

  const play = useCallback(async (bytes: ArrayBuffer) => {
    playing.current = true
    setPlaying(true)
    try {
      await playMp3(bytes)
    } finally {
      playing.current = false
      setPlaying(false)
    }
  }, [])

  const pronounce = useCallback(
    async (word: Descriptor) => {
      if (!enabled || playing.current) return
      playing.current = true
      setPlaying(true)
      try {
        const blob = await synthesize({ speechRequest: { word: word.word, language } }).unwrap()
        if (wordId.current !== word.id) return
        await play(await blob.arrayBuffer())
      } catch {
        toast({
          title: t('voice.audioError'),
          description: t('voice.audioFailed'),
          variant: 'destructive',
        })
      } finally {
        playing.current = false
        setPlaying(false)
      }
    },
    [enabled, language, synthesize, play, toast, t],
  )

  const exampleSentence = useCallback(
    async (word: Descriptor) => {
      if (!enabled) return
      setGenerating(true)
      try {
        const result = await generate({
          sentenceRequest: { descriptor: word.word, language },
        }).unwrap()
        if (wordId.current !== word.id) return
        setWritten({ wordId: word.id, text: result.sentence })
        setGenerating(false)
        if (!playing.current) await play(base64ToArrayBuffer(result.audioData))
      } catch {
        toast({
          title: t('voice.sentenceError'),
          description: t('voice.sentenceFailed'),
          variant: 'destructive',
        })
      } finally {
        setGenerating(false)
      }
    },
    [enabled, language, generate, play, toast, t],
  )

  const clearSentence = useCallback(() => setWritten(null), [])

  // A new word (Next, or Start) is spoken after 500 ms.
  const currentId = descriptor?.id ?? null
  const sentence = written && written.wordId === currentId ? written.text : null
  useEffect(() => {
    wordId.current = currentId
    if (!open || !speakNewWords || currentId === null || !descriptor) return
    const timer = setTimeout(() => void pronounce(descriptor), autoPronounceDelayMs)
    return () => clearTimeout(timer)
    // Only a new word re-arms the timer, not a new pronounce function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentId, open])

  // Ending the session silences it.
  useEffect(() => {
    if (!open) stopPlayback()
  }, [open])

  return {
    enabled,
    isPlaying,
    isGenerating,
    sentence,
    setEnabled,
    pronounce,
    exampleSentence,
    clearSentence,
  }
}
