import i18next from 'i18next'
import { useCallback, useRef, useState } from 'react'
import { errorCode, errorMessage } from '../../lib/api/index.ts'
import type { Descriptor, RandomDescriptorRequest } from '../../lib/api/generated.ts'
import { useGetRandomDescriptorMutation } from './api.ts'

/** In the interface language of the moment it is shown. */
export const noDescriptorsText = () => i18next.t('descriptors:trainer.noDescriptors')
export const nothingSelectedText = () => i18next.t('descriptors:trainer.nothingSelected')

/** Why no word is shown: nothing to draw (a note), or a failure. */
export type TrainingProblem = { text: string; severity: 'info' | 'error' }

export type TrainingSession = {
  running: boolean
  loading: boolean
  descriptor: Descriptor | null
  /** 'Related Descriptors' once revealed, else null. */
  revealed: Descriptor[] | null
  /** Why no word is shown, in the spec's words. */
  problem: TrainingProblem | null
}

const idle: TrainingSession = {
  running: false,
  loading: false,
  descriptor: null,
  revealed: null,
  problem: null,
}

type Options = {
  /** The random-descriptor call for the current selection, or null when nothing is selected. */
  buildRequest: (excludeId: number | undefined) => RandomDescriptorRequest | null
  relatedFor: (descriptor: Descriptor) => Descriptor[]
  /** Nothing is selected: the session does not start. */
  onNothingSelected: () => void
  /** A word drawn on the device from the words already loaded, for when the server is out of reach. */
  drawOffline?: (request: RandomDescriptorRequest) => Descriptor | null
}

/** Descriptor training session (spec §4): start, next (never the same word twice), reveal, end. */
export function useTrainingSession({
  buildRequest,
  relatedFor,
  onNothingSelected,
  drawOffline,
}: Options) {
  const [session, setSession] = useState<TrainingSession>(idle)
  const [getRandomDescriptor] = useGetRandomDescriptorMutation()
  // Only the newest draw may show its word: an older answer arriving late is dropped.
  const drawCount = useRef(0)

  const draw = useCallback(
    async (excludeId: number | undefined) => {
      const request = buildRequest(excludeId)
      if (!request) {
        drawCount.current += 1
        setSession(idle)
        onNothingSelected()
        return
      }
      const draw = ++drawCount.current
      setSession((s) => ({ ...s, running: true, loading: true, revealed: null, problem: null }))
      const result = await getRandomDescriptor({ randomDescriptorRequest: request })
      if (draw !== drawCount.current) return
      // Offline: the words already on the device stand in for the server's draw.
      const local =
        result.error && 'status' in result.error && result.error.status === 'FETCH_ERROR'
          ? drawOffline?.(request)
          : null
      if (local) {
        setSession({ ...idle, running: true, descriptor: local })
        return
      }
      if (result.error) {
        const code = errorCode(result.error)
        const problem: TrainingProblem =
          code === 'no_descriptors'
            ? { text: noDescriptorsText(), severity: 'info' }
            : code === 'no_categories_selected'
              ? { text: nothingSelectedText(), severity: 'error' }
              : {
                  text: errorMessage(result.error, i18next.t('descriptors:trainer.drawFailed')),
                  severity: 'error',
                }
        setSession({ ...idle, running: true, problem })
        return
      }
      setSession({ ...idle, running: true, descriptor: result.data })
    },
    [buildRequest, getRandomDescriptor, onNothingSelected, drawOffline],
  )

  const start = useCallback(() => void draw(undefined), [draw])

  const next = useCallback(() => {
    if (session.loading) return
    void draw(session.descriptor?.id)
  }, [draw, session.loading, session.descriptor])

  const reveal = useCallback(() => {
    const descriptor = session.descriptor
    if (!descriptor || session.loading || session.revealed) return
    setSession((s) => ({ ...s, revealed: relatedFor(descriptor) }))
  }, [relatedFor, session.descriptor, session.loading, session.revealed])

  const end = useCallback(() => {
    drawCount.current += 1
    setSession(idle)
  }, [])

  return { session, start, next, reveal, end }
}
