import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useToast } from '../../../components/toast/index.ts'
import type { Descriptor, TrainingLanguage } from '../../../lib/api/generated.ts'
import { useGenerateSentenceWithSpeechMutation, useSynthesizeSpeechMutation } from './api.ts'
import { base64ToArrayBuffer, playMp3, stopPlayback, unlockAudio } from './audio-player.ts'

/** Spec §9: the word is spoken this long after it appears. */
export const autoPronounceDelayMs = 500

const enabledKey = 'crv-voice-enabled'

function readEnabled(): boolean {
  try {
    return localStorage.getItem(enabledKey) !== 'false'
  } catch {
    return true
  }
}

export type VoiceAssistant = {
  enabled: boolean
  isPlaying: boolean
  isGenerating: boolean
  sentence: string | null
  setEnabled: (enabled: boolean) => void
  pronounce: (descriptor: Descriptor) => Promise<void>
  exampleSentence: (descriptor: Descriptor) => Promise<void>
  clearSentence: () => void
  /** From the Start click: lets the timer-started first word sound (autoplay rules). */
  prepare: () => void
}

/**
 * The trainer's AI audio state (spec §4): enabled, isPlaying, isGenerating, currentSentence.
 * A new word clears the sentence and is pronounced after 500 ms while training, unless voice
 * is off or something is playing.
 */
export function useVoiceAssistant(options: {
  language: TrainingLanguage
  descriptor: Descriptor | null
  training: boolean
}): VoiceAssistant {
  const { language, descriptor, training } = options
  const { toast } = useToast()
  const { t } = useTranslation('descriptors')
  const [enabled, setEnabledState] = useState(readEnabled)
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

  const setEnabled = useCallback((next: boolean) => {
    setEnabledState(next)
    try {
      localStorage.setItem(enabledKey, String(next))
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    if (!next) stopPlayback()
  }, [])

  // A new word (Next, or Start) is spoken after 500 ms.
  const currentId = descriptor?.id ?? null
  const sentence = written && written.wordId === currentId ? written.text : null
  useEffect(() => {
    wordId.current = currentId
    if (!training || currentId === null || !descriptor) return
    const timer = setTimeout(() => void pronounce(descriptor), autoPronounceDelayMs)
    return () => clearTimeout(timer)
    // Only a new word re-arms the timer, not a new pronounce function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentId, training])

  // Ending the session silences it.
  useEffect(() => {
    if (!training) stopPlayback()
  }, [training])

  return {
    enabled,
    isPlaying,
    isGenerating,
    sentence,
    setEnabled,
    pronounce,
    exampleSentence,
    clearSentence,
    prepare: unlockAudio,
  }
}
