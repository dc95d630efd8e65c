import { useCallback, useEffect, useRef, useState } from 'react'
import { errorCode } from '../../lib/api/index.ts'
import { keepDraft } from '../../lib/offline/draft-store.ts'
import type { PracticeWriteUp } from './api.ts'
import { mergeWriteUps, sameWriteUp } from './write-up-drafts.ts'
import type { ServerCopy, StartingPoint } from './write-up-drafts.ts'

/**
 * Where the write-up stands, as the page says it: `offline` and `retrying` keep it on this
 * device until a save goes through; `conflict` until the viewer chose between this device's
 * text and another's; `refused` until the next change (the server named why); `closed` once
 * the write-up was locked elsewhere.
 */
export type SaveState =
  'saved' | 'saving' | 'unsaved' | 'offline' | 'retrying' | 'conflict' | 'refused' | 'closed'

export const AUTOSAVE_DELAY_MS = 800
/** How long a save the server did not answer waits before it is sent again, while online. */
export const RETRY_DELAY_MS = 10_000

/** How a conflict is settled: this device's text, the other device's, or both merged. */
export type Choice = 'mine' | 'theirs' | 'both'

/** A failure that may pass: no answer, a busy or failing server, a limit for a while. */
function transient(err: unknown): boolean {
  const status = typeof err === 'object' && err !== null && 'status' in err ? err.status : null
  return (
    typeof status === 'string' ||
    (typeof status === 'number' && (status >= 500 || status === 429 || status === 408))
  )
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false

/**
 * Keeps the write-up: every change on this device at once (IndexedDB, per user and session,
 * with the revision it was written on) and on the server a moment after the viewer stops
 * typing, with that revision, so a save from another device in between comes back as a
 * conflict instead of being overwritten. Nothing is said to be saved before the server
 * confirmed it, and nothing is let go without the viewer's choice.
 */
export function useAutosave({
  userId,
  sessionId,
  start,
  save,
  latest,
  onClosed,
}: {
  userId: string | null
  sessionId: string
  start: StartingPoint
  save: (writeUp: PracticeWriteUp, revision: number) => Promise<{ revision: number }>
  /** The server's copy now. */
  latest: () => Promise<ServerCopy>
  /** The session was locked or closed meanwhile: what was not saved is `writeUp`. */
  onClosed: (writeUp: PracticeWriteUp) => void
}) {
  const [writeUp, setWriteUp] = useState(start.writeUp)
  const [theirs, setTheirs] = useState<ServerCopy | null>(start.theirs)
  const [state, setState] = useState<SaveState>(
    start.theirs ? 'conflict' : start.unsaved ? 'unsaved' : 'saved',
  )
  const [refusal, setRefusal] = useState<unknown>(null)
  const text = useRef(start.writeUp)
  const revision = useRef(start.theirs ? start.theirs.revision : start.revision)
  // The draft's own revision: the one `text` was written on (older than the server's in a
  // conflict, until the viewer has chosen).
  const draftRevision = useRef(start.revision)
  const dirty = useRef(start.unsaved || start.theirs !== null)
  const sent = useRef<PracticeWriteUp | null>(null)
  const conflict = useRef(start.theirs !== null)
  const running = useRef<Promise<boolean> | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  const keep = useCallback(() => {
    if (!userId) return
    keepDraft({
      userId,
      key: sessionId,
      value: text.current,
      revision: draftRevision.current,
      saved: !dirty.current,
      sent: sent.current,
      changedAt: new Date().toISOString(),
    })
  }, [userId, sessionId])

  /**
   * Sends what is not saved: `saved` once the server holds the text shown, `wait` when it
   * did not answer, `stop` when the viewer has to act (a conflict, a refusal, the lock).
   */
  const send = useCallback(async (): Promise<'saved' | 'wait' | 'stop'> => {
    const wait = () => {
      setState(online() ? 'retrying' : 'offline')
      return 'wait' as const
    }
    if (conflict.current) return 'stop'
    while (dirty.current) {
      const sending = text.current
      sent.current = sending
      keep()
      setState('saving')
      try {
        const saved = await save(sending, revision.current)
        revision.current = draftRevision.current = saved.revision
      } catch (err) {
        const code = errorCode(err)
        if (code === 'stale_write_up') {
          const server = await latest().catch(() => null)
          if (!server) return wait()
          // The server holds this text already (an earlier save's answer was lost), or the
          // text typed since: no other device's words are in the way.
          if (!sameWriteUp(server.writeUp, sending) && !sameWriteUp(server.writeUp, text.current)) {
            revision.current = server.revision
            conflict.current = true
            setTheirs(server)
            setState('conflict')
            return 'stop'
          }
          revision.current = draftRevision.current = server.revision
        } else if (code === 'session_locked' || code === 'session_abandoned') {
          setState('closed')
          onClosed(text.current)
          return 'stop'
        } else if (transient(err)) {
          return wait()
        } else {
          setRefusal(err)
          setState('refused')
          return 'stop'
        }
      }
      sent.current = null
      if (text.current === sending) dirty.current = false
      keep()
    }
    setState('saved')
    return 'saved'
  }, [keep, save, latest, onClosed])

  /**
   * Sends what is not saved, one send at a time (a flush asked for during another, the lock's,
   * waits for it); true once the server holds the text shown. Without an answer, it is sent
   * again when the browser is back online (the 'online' event) or, while it thinks it is,
   * after a while.
   */
  const flush = useCallback((): Promise<boolean> => {
    const next = (running.current ?? Promise.resolve(true)).then(
      async () => (await send()) === 'saved',
    )
    running.current = next
    return next
  }, [send])

  const change = useCallback(
    (next: PracticeWriteUp) => {
      text.current = next
      dirty.current = true
      keep()
      setWriteUp(next)
      if (conflict.current) return
      setState('unsaved')
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
    },
    [keep, flush],
  )

  /** Settles a conflict as the viewer chose, and saves the result on the server's revision. */
  const resolve = useCallback(
    (choice: Choice) => {
      if (!theirs) return
      const next =
        choice === 'mine'
          ? text.current
          : choice === 'theirs'
            ? theirs.writeUp
            : mergeWriteUps(text.current, theirs.writeUp).writeUp
      conflict.current = false
      setTheirs(null)
      text.current = next
      draftRevision.current = revision.current = theirs.revision
      dirty.current = choice !== 'theirs'
      keep()
      setWriteUp(next)
      setState(dirty.current ? 'unsaved' : 'saved')
      if (dirty.current) void flush()
    },
    [theirs, keep, flush],
  )

  // A write-up found unsaved at the start is sent at once.
  useEffect(() => {
    if (start.unsaved && !start.theirs) void flush()
    // Once, for the starting point this view was made with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    if (state !== 'retrying') return
    const again = setTimeout(() => void flush(), RETRY_DELAY_MS)
    return () => clearTimeout(again)
  }, [state, flush])

  useEffect(() => {
    const back = () => void flush()
    window.addEventListener('online', back)
    return () => {
      window.removeEventListener('online', back)
      if (timer.current) clearTimeout(timer.current)
    }
  }, [flush])

  // Leaving the page before the server has the text: the browser asks first.
  useEffect(() => {
    if (state === 'saved' || state === 'closed') return
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault()
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [state])

  return { writeUp, state, theirs, refusal, change, flush, resolve }
}
