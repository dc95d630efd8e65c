import { skipToken } from '@reduxjs/toolkit/query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAuth } from '../../components/auth/index.ts'
import { useToast } from '../../components/toast/index.ts'
import { drawSequence } from '../../lib/audio/pick.ts'
import type { EngineWord } from '../../lib/audio/playback-engine.ts'
import { defaultSpeed, type SpeedKey } from '../../lib/audio/speeds.ts'
import { errorCode } from '../../lib/api/index.ts'
import { useSessionRecorder } from '../../lib/history/use-session-recorder.ts'
import { keepForOffline } from '../../lib/offline/register.ts'
import { useWater } from '../../lib/water/index.ts'
import {
  useDeleteCustomWordMutation,
  useGenerateCustomWordAudioMutation,
  useListCustomWordsQuery,
} from './api.ts'
import {
  basicGestalts,
  customIdeogramWord,
  joinedSequenceLength,
  localStorageOrNothing,
  playbackNoticeMs,
  readDeletedGestalts,
  rememberDeletedGestalt,
  waterGestalt,
  type FrequencyLevel,
  type IdeogramWord,
} from './gestalts.ts'
import { useIdeogramPlayer } from './use-ideogram-player.ts'

export type TrainingMode = 'normal' | 'joined'

const toEngineWord = (word: IdeogramWord): EngineWord => ({
  id: word.id,
  url: word.audioUrl,
  probabilityLevel: word.probabilityLevel,
})

/** The gestalts of a session as its history keeps them: custom words only as 'custom'. */
const gestaltNames = (words: readonly IdeogramWord[]) => [
  ...new Set(words.map((w) => (w.custom ? 'custom' : w.id))),
]

/** The ideogram page's state and actions (spec §2, §4). */
export function useIdeogramTrainer() {
  const { user, openSignIn } = useAuth()
  const water = useWater()
  const { toast } = useToast()
  const { t } = useTranslation('ideogram')
  const [selection, setSelection] = useState<Record<string, boolean>>({})
  const [levels, setLevels] = useState<Record<string, FrequencyLevel>>({})
  const [mode, setModeState] = useState<TrainingMode>('normal')
  const [speed, setSpeed] = useState<SpeedKey>(defaultSpeed)
  const [volume, setVolume] = useState(100)
  const [deleted, setDeleted] = useState<string[]>(() =>
    readDeletedGestalts(localStorageOrNothing()),
  )

  const customWords = useListCustomWordsQuery(user ? {} : skipToken)
  const [generateAudio, generation] = useGenerateCustomWordAudioMutation()
  const [deleteWord] = useDeleteCustomWordMutation()

  const player = useIdeogramPlayer({
    speed,
    volume,
    onAudioFailing: () =>
      toast({
        title: t('toasts.audioError'),
        description: t('toasts.audioFailed'),
        variant: 'destructive',
      }),
  })
  const { isPlaying, playingId, play, stop, audioFailing } = player

  // A signed-in user's sessions go to their training history: from Play to Stop, with the
  // speeds and gestalts used.
  const recordSession = useSessionRecorder()
  const playing = useRef<{ startedAt: number; speeds: Set<string>; gestalts: string[] } | null>(
    null,
  )
  const finishSession = useCallback(() => {
    const session = playing.current
    playing.current = null
    if (!session) return
    recordSession({
      activity: 'ideogram',
      startedAt: new Date(session.startedAt).toISOString(),
      durationMs: Date.now() - session.startedAt,
      speeds: [...session.speeds],
      gestalts: session.gestalts,
    })
  }, [recordSession])
  const trainedGestalts = useRef<string[]>([])
  useEffect(() => {
    if (isPlaying && !playing.current)
      playing.current = {
        startedAt: Date.now(),
        speeds: new Set([speed]),
        gestalts: trainedGestalts.current,
      }
    else if (isPlaying && playing.current) playing.current.speeds.add(speed)
    else if (!isPlaying) finishSession()
  }, [isPlaying, speed, finishSession])
  useEffect(() => finishSession, [finishSession])

  const loadErrorShown = useRef(false)
  useEffect(() => {
    if (customWords.isError && !loadErrorShown.current) {
      loadErrorShown.current = true
      toast({
        title: t('toasts.error'),
        description: t('toasts.loadFailed'),
        variant: 'destructive',
      })
    }
  }, [customWords.isError, toast, t])

  const words = useMemo<IdeogramWord[]>(() => {
    const customs = (user ? (customWords.data ?? []) : [])
      .map(customIdeogramWord)
      .filter((word) => !deleted.includes(word.id))
    const list = [...basicGestalts, ...(water.unlocked ? [waterGestalt] : []), ...customs]
    return list.map((word) => ({
      ...word,
      selected: selection[word.id] === true,
      probabilityLevel: levels[word.id] ?? word.probabilityLevel,
      playing: word.id === playingId,
    }))
  }, [user, customWords.data, deleted, water.unlocked, selection, levels, playingId])

  // Every clip on the page is kept by the service worker: the trainer then plays offline.
  const clipUrls = words.map((w) => w.audioUrl).join('\n')
  useEffect(() => keepForOffline(clipUrls.split('\n')), [clipUrls])

  const selectedCount =
    mode === 'joined' ? joinedSequenceLength : words.filter((w) => w.selected).length

  const stopWithNotice = useCallback(
    (reason: string) => {
      if (!isPlaying) return
      stop()
      toast({ title: t('toasts.playbackStopped'), description: reason, duration: playbackNoticeMs })
    },
    [isPlaying, stop, toast, t],
  )

  const toggleWord = useCallback(
    (id: string) => {
      if (mode === 'joined') {
        stop()
        setModeState('normal')
        toast({
          title: t('toasts.switchedToNormal'),
          description: t('toasts.manualSelection'),
          duration: playbackNoticeMs,
        })
      } else {
        stopWithNotice(t('toasts.selectionChanged'))
      }
      setSelection((current) => ({ ...current, [id]: !current[id] }))
    },
    [mode, stop, stopWithNotice, toast, t],
  )

  const setLevel = useCallback(
    (id: string, level: FrequencyLevel) => {
      stopWithNotice(t('toasts.frequencyChanged'))
      setLevels((current) => ({ ...current, [id]: level }))
    },
    [stopWithNotice, t],
  )

  const setMode = useCallback(
    (next: TrainingMode) => {
      if (next === mode) return
      stop()
      setModeState(next)
    },
    [mode, stop],
  )

  const startPlaying = useCallback(() => {
    if (mode === 'joined') {
      const sequence = drawSequence(
        words.filter((w) => !w.custom),
        joinedSequenceLength,
      )
      setSelection(Object.fromEntries(sequence.map((w) => [w.id, true])))
      trainedGestalts.current = gestaltNames(sequence)
      play({ mode: 'joined', sequence: sequence.map(toEngineWord) })
      return
    }
    const selected = words.filter((w) => w.selected)
    if (selected.length === 0) return
    trainedGestalts.current = gestaltNames(selected)
    play({ mode: 'normal', words: selected.map(toEngineWord), speed })
  }, [mode, words, play, speed])

  const togglePlay = useCallback(() => {
    if (isPlaying) stop()
    else startPlaying()
  }, [isPlaying, stop, startPlaying])

  const canPlay = mode === 'joined' || words.some((w) => w.selected)

  const createCustomGestalt = useCallback(
    async (text: string): Promise<boolean> => {
      const word = text.trim()
      if (!word) {
        toast({
          title: t('toasts.error'),
          description: t('toasts.enterWord'),
          variant: 'destructive',
        })
        return false
      }
      const result = await generateAudio({ generateAudioRequest: { word } })
      if ('error' in result) {
        toast({
          title: t('toasts.error'),
          description:
            errorCode(result.error) === 'word_required'
              ? t('toasts.enterWord')
              : t('toasts.generateFailed'),
          variant: 'destructive',
        })
        return false
      }
      // The server answers with the word it already has for a repeat: say so.
      const known = customWords.data?.some((existing) => existing.id === result.data.id)
      if (known) {
        toast({
          title: t('toasts.alreadyThereTitle'),
          description: t('toasts.alreadyThere', { word: result.data.word }),
        })
        return true
      }
      stopWithNotice(t('toasts.gestaltAdded'))
      toast({
        title: t('toasts.successTitle'),
        description: t('toasts.created', { word: result.data.word }),
        variant: 'success',
      })
      return true
    },
    [generateAudio, customWords.data, stopWithNotice, toast, t],
  )

  const deleteCustomGestalt = useCallback(
    async (word: IdeogramWord) => {
      if (!user) {
        toast({
          title: t('toasts.authRequired'),
          description: t('toasts.signInToDelete'),
          variant: 'destructive',
        })
        openSignIn()
        return
      }
      if (word.customWordId === undefined) {
        toast({
          title: t('toasts.error'),
          description: t('toasts.idNotFound'),
          variant: 'destructive',
        })
        return
      }
      const result = await deleteWord({ id: word.customWordId })
      if ('error' in result) {
        const notFound = errorCode(result.error) === 'not_found'
        toast({
          title: t('toasts.error'),
          description: notFound ? t('toasts.notFound') : t('toasts.deleteFailed'),
          variant: 'destructive',
        })
        return
      }
      stopWithNotice(t('toasts.gestaltDeleted'))
      rememberDeletedGestalt(localStorageOrNothing(), word.id)
      setDeleted((current) => [...current, word.id])
      setSelection(({ [word.id]: _gone, ...rest }) => rest)
      // Undo makes the word again (its clip is voiced anew), with its frequency and selection.
      const undo = async () => {
        const again = await generateAudio({ generateAudioRequest: { word: word.name } })
        if ('error' in again) {
          toast({
            title: t('toasts.error'),
            description: t('toasts.restoreFailed', { word: word.name }),
            variant: 'destructive',
          })
          return
        }
        const id = customIdeogramWord(again.data).id
        setLevels((current) => ({ ...current, [id]: word.probabilityLevel }))
        if (word.selected) setSelection((current) => ({ ...current, [id]: true }))
        toast({
          title: t('toasts.restoredTitle'),
          description: t('toasts.restored', { word: word.name }),
          variant: 'success',
        })
      }
      toast({
        title: t('toasts.deletedTitle'),
        description: t('toasts.deleted', { word: word.name }),
        variant: 'success',
        duration: 8000,
        action: { label: t('toasts.undo'), onClick: () => void undo() },
      })
    },
    [user, openSignIn, deleteWord, generateAudio, stopWithNotice, toast, t],
  )

  return {
    words,
    mode,
    setMode,
    speed,
    setSpeed,
    volume,
    setVolume,
    isPlaying,
    audioFailing: isPlaying && audioFailing,
    canPlay,
    togglePlay,
    selectedCount,
    toggleWord,
    setLevel,
    customWords: words.filter((w) => w.custom),
    customWordsLoading: customWords.isLoading,
    generating: generation.isLoading,
    createCustomGestalt,
    deleteCustomGestalt,
  }
}

export type IdeogramTrainer = ReturnType<typeof useIdeogramTrainer>
