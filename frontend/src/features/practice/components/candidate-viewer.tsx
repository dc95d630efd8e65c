import ChevronLeftIcon from '@mui/icons-material/ChevronLeft'
import ChevronRightIcon from '@mui/icons-material/ChevronRight'
import CloseIcon from '@mui/icons-material/Close'
import ZoomInIcon from '@mui/icons-material/ZoomIn'
import ZoomOutIcon from '@mui/icons-material/ZoomOut'
import { Box, Button, Dialog, IconButton, Stack, Typography } from '@mui/material'
import { keyframes } from '@mui/material/styles'
import { useId, useRef, useState } from 'react'
import type { KeyboardEvent, PointerEvent, WheelEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeCandidate } from '../api.ts'
import {
  clampView,
  distance,
  isDoubleTap,
  isTap,
  MAX_SCALE,
  midpoint,
  swipeStep,
  TAP_SCALE,
  UNZOOMED,
  zoomAbout,
} from '../gestures.ts'
import type { Point, View } from '../gestures.ts'
import { candidateLetter } from '../ranking.ts'
import { PlaceSelect } from './place-select.tsx'

type Gesture =
  | { kind: 'swipe'; start: Point; time: number }
  | { kind: 'pan'; start: Point; origin: View }
  | { kind: 'pinch'; at: Point; distance: number; origin: View }

const fromRight = keyframes`from { opacity: 0; transform: translateX(12%); } to { opacity: 1; transform: none; }`
const fromLeft = keyframes`from { opacity: 0; transform: translateX(-12%); } to { opacity: 1; transform: none; }`

const coarsePointer = () =>
  typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches

/**
 * The candidates one at a time, over the whole screen: swiped through and pinched on a phone,
 * arrow keys (and + and −) on a desktop, buttons for both. A dialog: the focus stays in it, its
 * title names the candidate by letter (never by what it shows), Escape and × close it. The
 * candidate's place can be chosen here too.
 */
export function CandidateViewer({
  candidates,
  index,
  onIndex,
  onClose,
  placeOf,
  onPlace,
}: {
  candidates: PracticeCandidate[]
  /** The candidate shown (its position in the set, as its letter); null: closed. */
  index: number | null
  onIndex: (index: number) => void
  onClose: () => void
  placeOf: (id: string) => number
  onPlace: (id: string, place: number) => void
}) {
  const { t } = useTranslation('practice')
  const titleId = useId()
  const hintId = useId()
  const stage = useRef<HTMLDivElement>(null)
  const pointers = useRef(new Map<number, Point>())
  const gesture = useRef<Gesture | null>(null)
  const press = useRef<{ at: Point; time: number } | null>(null)
  const lastTap = useRef<{ at: Point; time: number } | null>(null)
  const viewRef = useRef<View>(UNZOOMED)
  const [view, setViewState] = useState<View>(UNZOOMED)
  const [dragX, setDragX] = useState(0)
  const [moving, setMoving] = useState(false)
  const [arrivedFrom, setArrivedFrom] = useState<'left' | 'right' | null>(null)
  const setView = (next: View) => {
    viewRef.current = next
    setViewState(next)
  }

  // The candidate shown is kept while the dialog fades out, so it does not go blank.
  const [shown, setShown] = useState(index ?? 0)
  if (index !== null && index !== shown) setShown(index)
  const candidate = candidates[shown]
  const count = candidates.length
  const box = () => {
    const rect = stage.current?.getBoundingClientRect()
    return { width: rect?.width ?? 1, height: rect?.height ?? 1 }
  }
  /** A point on the screen, from the stage's centre. */
  const local = (p: Point): Point => {
    const rect = stage.current?.getBoundingClientRect()
    if (!rect) return p
    return { x: p.x - rect.left - rect.width / 2, y: p.y - rect.top - rect.height / 2 }
  }
  const go = (next: number) => {
    if (next < 0 || next >= count || next === shown) return
    setView(UNZOOMED)
    setDragX(0)
    setArrivedFrom(next > shown ? 'right' : 'left')
    onIndex(next)
  }
  /** Closed unzoomed, so the next opening starts on the whole picture, without a slide. */
  const close = () => {
    setView(UNZOOMED)
    setDragX(0)
    setArrivedFrom(null)
    onClose()
  }
  const zoomBy = (factor: number, at: Point = { x: 0, y: 0 }) =>
    setView(clampView(zoomAbout(viewRef.current, at, viewRef.current.scale * factor), box()))

  const onKeyDown = (e: KeyboardEvent) => {
    // A focused place select takes its own arrow keys.
    if (e.target instanceof HTMLSelectElement) return
    if (e.key === 'ArrowRight') go(shown + 1)
    else if (e.key === 'ArrowLeft') go(shown - 1)
    else if (e.key === '+' || e.key === '=') zoomBy(1.5)
    else if (e.key === '-') zoomBy(1 / 1.5)
    else if (e.key === '0') setView(UNZOOMED)
    else return
    e.preventDefault()
  }

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    e.currentTarget.setPointerCapture(e.pointerId)
    const at = { x: e.clientX, y: e.clientY }
    pointers.current.set(e.pointerId, at)
    setMoving(true)
    const [a, b] = [...pointers.current.values()]
    if (a && b) {
      setDragX(0)
      press.current = null
      gesture.current = {
        kind: 'pinch',
        at: local(midpoint(a, b)),
        distance: Math.max(distance(a, b), 1),
        origin: viewRef.current,
      }
    } else if (a) {
      press.current = { at, time: e.timeStamp }
      gesture.current =
        viewRef.current.scale > 1
          ? { kind: 'pan', start: at, origin: viewRef.current }
          : { kind: 'swipe', start: at, time: e.timeStamp }
    }
  }

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return
    const at = { x: e.clientX, y: e.clientY }
    pointers.current.set(e.pointerId, at)
    const g = gesture.current
    if (!g) return
    if (g.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()]
      if (!a || !b) return
      const scale = (g.origin.scale * distance(a, b)) / g.distance
      setView(clampView(zoomAbout(g.origin, g.at, scale, local(midpoint(a, b))), box()))
    } else if (g.kind === 'pan') {
      setView(
        clampView(
          { ...g.origin, x: g.origin.x + at.x - g.start.x, y: g.origin.y + at.y - g.start.y },
          box(),
        ),
      )
    } else {
      const dx = at.x - g.start.x
      const ahead = dx < 0 ? shown < count - 1 : shown > 0
      // Past the first or the last candidate, the picture only gives a little.
      setDragX(ahead ? dx : dx / 4)
    }
  }

  const onPointerEnd = (e: PointerEvent<HTMLDivElement>) => {
    const from = pointers.current.get(e.pointerId)
    if (!from) return
    pointers.current.delete(e.pointerId)
    const at = { x: e.clientX, y: e.clientY }
    const cancelled = e.type === 'pointercancel'
    const g = gesture.current
    const rest = [...pointers.current.values()]
    if (g?.kind === 'pinch') {
      const [left] = rest
      // One finger lifted: the other pans on.
      gesture.current = left ? { kind: 'pan', start: left, origin: viewRef.current } : null
      if (viewRef.current.scale < 1.05) setView(UNZOOMED)
    } else if (g?.kind === 'swipe' && rest.length === 0) {
      setDragX(0)
      const step = cancelled
        ? 0
        : swipeStep(at.x - g.start.x, at.y - g.start.y, e.timeStamp - g.time, box().width)
      if (step !== 0) go(shown + step)
    }
    if (rest.length > 0) return
    gesture.current = null
    setMoving(false)
    const pressed = press.current
    press.current = null
    if (cancelled || !pressed || !isTap(pressed.at, at, e.timeStamp - pressed.time)) return
    const tap = { at, time: e.timeStamp }
    if (lastTap.current && isDoubleTap(lastTap.current, tap)) {
      lastTap.current = null
      if (viewRef.current.scale > 1) setView(UNZOOMED)
      else setView(clampView(zoomAbout(viewRef.current, local(at), TAP_SCALE), box()))
    } else lastTap.current = tap
  }

  const onWheel = (e: WheelEvent<HTMLDivElement>) =>
    zoomBy(Math.exp(-e.deltaY / 400), local({ x: e.clientX, y: e.clientY }))

  if (!candidate) return null
  const letter = candidateLetter(shown)
  const zoomed = view.scale > 1
  const cursor = zoomed ? (moving ? 'grabbing' : 'grab') : 'zoom-in'
  const barSx = {
    display: 'flex',
    alignItems: 'center',
    gap: 1,
    px: { xs: 1, sm: 2 },
    py: 1,
    bgcolor: 'background.paper',
  } as const

  return (
    <Dialog
      fullScreen
      open={index !== null}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={hintId}
      onKeyDown={onKeyDown}
    >
      <Stack sx={{ height: '100%' }}>
        <Box sx={{ ...barSx, borderBottom: 1, borderColor: 'divider' }}>
          <Typography
            id={titleId}
            component="h2"
            variant="h6"
            aria-live="polite"
            sx={{ flex: 1, minWidth: 0 }}
          >
            {t('judge.candidate', { letter })}{' '}
            <Typography component="span" color="text.secondary">
              {t('viewer.position', { index: shown + 1, count })}
            </Typography>
          </Typography>
          <IconButton
            aria-label={t('viewer.zoomOut')}
            disabled={!zoomed}
            onClick={() => zoomBy(1 / 1.5)}
          >
            <ZoomOutIcon />
          </IconButton>
          <IconButton
            aria-label={t('viewer.zoomIn')}
            disabled={view.scale >= MAX_SCALE}
            onClick={() => zoomBy(1.5)}
          >
            <ZoomInIcon />
          </IconButton>
          <IconButton aria-label={t('viewer.close')} onClick={close} sx={{ ml: 1 }}>
            <CloseIcon />
          </IconButton>
        </Box>
        <Box
          ref={stage}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerEnd}
          onPointerCancel={onPointerEnd}
          onWheel={onWheel}
          sx={{
            position: 'relative',
            flex: 1,
            minHeight: 0,
            overflow: 'hidden',
            bgcolor: '#000',
            touchAction: 'none',
            userSelect: 'none',
            cursor,
          }}
        >
          <Box
            key={shown}
            component="img"
            src={candidate.imageUrl}
            alt={t('judge.candidate', { letter })}
            draggable={false}
            sx={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              objectFit: 'contain',
              pointerEvents: 'none',
              transform: `translate(${view.x + dragX}px, ${view.y}px) scale(${view.scale})`,
              opacity: dragX === 0 ? 1 : Math.max(0.4, 1 - Math.abs(dragX) / 600),
              transition: moving ? 'none' : 'transform 180ms ease-out, opacity 180ms ease-out',
              animation: arrivedFrom
                ? `${arrivedFrom === 'right' ? fromRight : fromLeft} 200ms ease-out`
                : 'none',
              '@media (prefers-reduced-motion: reduce)': { animation: 'none', transition: 'none' },
            }}
          />
        </Box>
        <Box
          sx={{
            ...barSx,
            borderTop: 1,
            borderColor: 'divider',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            pb: 'max(8px, env(safe-area-inset-bottom))',
          }}
        >
          <Typography
            id={hintId}
            variant="caption"
            color="text.secondary"
            sx={{ width: '100%', textAlign: 'center' }}
          >
            {t(coarsePointer() ? 'viewer.hintTouch' : 'viewer.hintKeys')}
          </Typography>
          <Button
            startIcon={<ChevronLeftIcon />}
            disabled={shown === 0}
            onClick={() => go(shown - 1)}
            sx={{ minHeight: 44 }}
          >
            {t('viewer.previous')}
          </Button>
          <PlaceSelect
            letter={letter}
            place={placeOf(candidate.id)}
            count={count}
            onPlace={(place) => onPlace(candidate.id, place)}
          />
          <Button
            endIcon={<ChevronRightIcon />}
            disabled={shown === count - 1}
            onClick={() => go(shown + 1)}
            sx={{ minHeight: 44 }}
          >
            {t('viewer.next')}
          </Button>
        </Box>
      </Stack>
    </Dialog>
  )
}
