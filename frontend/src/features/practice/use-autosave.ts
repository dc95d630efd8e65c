import { useCallback, useEffect, useRef, useState } from 'react'
import { errorCode } from '../../lib/api/index.ts'
import type { PracticeWriteUp } from './api.ts'

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'offline' | 'conflict'

export const AUTOSAVE_DELAY_MS = 800

/**
 * Saves the write-up a moment after the viewer stops typing, with the revision last seen, so a
 * save from another device in between comes back as a conflict instead of being overwritten. A
 * failed save is tried again on the next change and when the browser comes back online.
 */
export function useAutosave(
  initialRevision: number,
  save: (writeUp: PracticeWriteUp, revision: number) => Promise<{ revision: number }>,
  onConflict: () => void,
) {
  const [state, setState] = useState<SaveState>('saved')
  const revision = useRef(initialRevision)
  const pending = useRef<PracticeWriteUp | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const inFlight = useRef(false)

  const flush = useCallback(async () => {
    if (inFlight.current) return
    inFlight.current = true
    try {
      // What was typed while a save was on its way goes next; a failure waits for the next
      // change or for the browser to come back online (no retry loop while offline).
      while (pending.current) {
        const writeUp = pending.current
        pending.current = null
        setState('saving')
        try {
          const saved = await save(writeUp, revision.current)
          revision.current = saved.revision
          setState(pending.current ? 'unsaved' : 'saved')
        } catch (err) {
          if (errorCode(err) === 'stale_write_up') {
            setState('conflict')
            onConflict()
          } else {
            // Kept for the next try: nothing typed is lost to a dropped connection.
            pending.current ??= writeUp
            setState('offline')
          }
          return
        }
      }
    } finally {
      inFlight.current = false
    }
  }, [save, onConflict])

  const change = useCallback(
    (writeUp: PracticeWriteUp) => {
      pending.current = writeUp
      setState('unsaved')
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
    },
    [flush],
  )

  const reset = useCallback((nextRevision: number) => {
    revision.current = nextRevision
    pending.current = null
    setState('saved')
  }, [])

  useEffect(() => {
    const online = () => void flush()
    window.addEventListener('online', online)
    return () => {
      window.removeEventListener('online', online)
      if (timer.current) clearTimeout(timer.current)
    }
  }, [flush])

  return { state, change, flush, reset }
}
