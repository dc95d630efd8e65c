import DragIndicatorIcon from '@mui/icons-material/DragIndicator'
import OpenInFullIcon from '@mui/icons-material/OpenInFull'
import {
  Box,
  Button,
  ButtonBase,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  Typography,
} from '@mui/material'
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { KeyboardEvent, PointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeCandidate } from '../api.ts'
import { useJudgeByText } from '../preferences.ts'
import {
  candidateLetter,
  dropIndex,
  moveItem,
  offsetsWhileDragging,
  withPlace,
} from '../ranking.ts'
import type { Box as ItemBox } from '../ranking.ts'
import { CandidateTags } from './candidate-tags.tsx'
import { CandidateViewer } from './candidate-viewer.tsx'
import { DescriptionOnlySwitch } from './description-only-switch.tsx'
import { PlaceSelect } from './place-select.tsx'
import { RankingConfirmDialog } from './ranking-confirm-dialog.tsx'

// In pixels as strings: to sx a width of 1 is 100 %.
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const

/** A drag in progress: the item's index when it began, where it would land, how far it went. */
type Drag = {
  id: string
  pointerId: number
  from: number
  to: number
  /** Where the pointer started, on the page (scrolling while dragging moves the item too). */
  start: { x: number; y: number }
  moved: { x: number; y: number }
  /** The items' boxes on the page when the drag began, in their order. */
  boxes: ItemBox[]
}

const GAP_PX = 12
/** How close to the window's top or bottom a drag scrolls the page. */
const EDGE_PX = 72

const pagePoint = (e: { clientX: number; clientY: number }) => ({
  x: e.clientX + window.scrollX,
  y: e.clientY + window.scrollY,
})

/**
 * The candidates, ranked by the viewer (1 = best match): dragged by their handle (mouse or
 * finger; the handle takes the up and down arrow keys too), or given a place by number. The
 * pictures are cards in a grid on wider screens and rows on a phone, and each opens over the
 * whole screen. For a viewer who chose not to see the wrong pictures, rows of tags instead.
 * Judging asks for a confirmation with the ranking in order.
 */
export function JudgePanel({
  candidates,
  judging,
  onJudge,
  scrollIntoView = false,
}: {
  candidates: PracticeCandidate[]
  judging: boolean
  onJudge: (ranking: string[]) => void
  /** Brought into view with its heading focused when it appears: right after the lock. */
  scrollIntoView?: boolean
}) {
  const { t } = useTranslation('practice')
  const [byText] = useJudgeByText()
  const [order, setOrder] = useState(() => candidates.map((c) => c.id))
  const [drag, setDrag] = useState<Drag | null>(null)
  const [viewing, setViewing] = useState<number | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [announcement, setAnnouncement] = useState('')
  const instructionsId = useId()

  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const items = useRef(new Map<string, HTMLElement>())
  const handles = useRef(new Map<string, HTMLElement>())
  const selects = useRef(new Map<string, HTMLSelectElement>())
  const refocus = useRef<{ id: string; control: 'handle' | 'place' } | null>(null)
  const dragRef = useRef<Drag | null>(null)
  const pointer = useRef({ clientX: 0, clientY: 0 })

  const positionOf = new Map(candidates.map((c, i) => [c.id, i]))
  const letterOf = (id: string) => candidateLetter(positionOf.get(id) ?? 0)
  const byId = new Map(candidates.map((c) => [c.id, c]))
  const count = order.length
  const offsets = drag ? offsetsWhileDragging(drag.boxes, drag.from, drag.to, GAP_PX) : null

  useEffect(() => {
    if (!scrollIntoView) return
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    section.current?.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' })
    heading.current?.focus({ preventScroll: true })
  }, [scrollIntoView])

  // An item moved by the keyboard (or by its place select) is a new position in the list: the
  // focus goes back to the control that moved it.
  useLayoutEffect(() => {
    const wanted = refocus.current
    if (!wanted) return
    refocus.current = null
    const element =
      wanted.control === 'handle' ? handles.current.get(wanted.id) : selects.current.get(wanted.id)
    if (element && document.activeElement !== element) element.focus()
  }, [order])

  const announce = (id: string, next: string[]) =>
    setAnnouncement(
      t('judge.moved', { letter: letterOf(id), place: next.indexOf(id) + 1, count: next.length }),
    )
  const place = (id: string, to: number, control?: 'handle' | 'place') => {
    const next = withPlace(order, id, to)
    if (control) refocus.current = { id, control }
    setOrder(next)
    announce(id, next)
  }

  const updateDrag = () => {
    const d = dragRef.current
    if (!d) return
    const at = pagePoint(pointer.current)
    const moved = { x: at.x - d.start.x, y: at.y - d.start.y }
    const box = d.boxes[d.from]
    if (!box) return
    const centre = { x: box.x + box.width / 2 + moved.x, y: box.y + box.height / 2 + moved.y }
    const next = { ...d, moved, to: dropIndex(d.boxes, d.from, centre) }
    dragRef.current = next
    setDrag(next)
  }
  const endDrag = (commit: boolean) => {
    const d = dragRef.current
    dragRef.current = null
    setDrag(null)
    if (!d || !commit || d.to === d.from) return
    const next = moveItem(order, d.from, d.to)
    setOrder(next)
    announce(d.id, next)
  }

  // Held near the window's top or bottom, a drag scrolls the page (ten candidates on a phone);
  // only towards where it is going, so a handle picked up near an edge does not scroll away.
  const dragging = drag !== null
  useEffect(() => {
    if (!dragging) return
    let frame = 0
    const step = () => {
      const y = pointer.current.clientY
      const going = dragRef.current?.moved.y ?? 0
      const bottom = window.innerHeight - EDGE_PX
      const speed =
        y < EDGE_PX && going < 0
          ? -(EDGE_PX - y) / 4
          : y > bottom && going > 0
            ? (y - bottom) / 4
            : 0
      if (speed !== 0) {
        window.scrollBy(0, speed)
        updateDrag()
      }
      frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    return () => cancelAnimationFrame(frame)
  }, [dragging])

  const onHandleDown = (e: PointerEvent<HTMLElement>, id: string, index: number) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    e.preventDefault()
    e.currentTarget.setPointerCapture(e.pointerId)
    const boxes = order.map((itemId) => {
      const r = items.current.get(itemId)?.getBoundingClientRect()
      return r
        ? {
            x: r.left + window.scrollX,
            y: r.top + window.scrollY,
            width: r.width,
            height: r.height,
          }
        : { x: 0, y: 0, width: 0, height: 0 }
    })
    pointer.current = { clientX: e.clientX, clientY: e.clientY }
    const next: Drag = {
      id,
      pointerId: e.pointerId,
      from: index,
      to: index,
      start: pagePoint(e),
      moved: { x: 0, y: 0 },
      boxes,
    }
    dragRef.current = next
    setDrag(next)
  }
  const onHandleMove = (e: PointerEvent<HTMLElement>) => {
    if (dragRef.current?.pointerId !== e.pointerId) return
    pointer.current = { clientX: e.clientX, clientY: e.clientY }
    updateDrag()
  }
  const onHandleUp = (e: PointerEvent<HTMLElement>) => {
    if (dragRef.current?.pointerId !== e.pointerId) return
    endDrag(e.type === 'pointerup')
  }
  const onHandleKey = (e: KeyboardEvent<HTMLElement>, id: string, index: number) => {
    const keys: Record<string, number> = {
      ArrowUp: index,
      ArrowDown: index + 2,
      Home: 1,
      End: count,
    }
    const to = keys[e.key]
    if (to === undefined) return
    e.preventDefault()
    if (to >= 1 && to <= count && to !== index + 1) place(id, to, 'handle')
  }

  return (
    <Card
      ref={section}
      variant="outlined"
      component="section"
      aria-label={t('judge.region')}
      sx={{ scrollMarginTop: { xs: 64, sm: 80 } }}
    >
      <CardContent>
        <Typography ref={heading} tabIndex={-1} variant="h6" component="h2" gutterBottom>
          {t('judge.heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1.5, maxWidth: '70ch' }}>
          {t(byText ? 'judge.introByText' : 'judge.intro')}
        </Typography>
        <Box sx={{ mb: 2 }}>
          <DescriptionOnlySwitch />
        </Box>
        <Typography id={instructionsId} sx={visuallyHidden}>
          {t('judge.dragInstructions')}
        </Typography>
        <Box role="status" aria-live="polite" sx={visuallyHidden}>
          {announcement}
        </Box>
        <Box
          component="ol"
          aria-label={t('judge.yourRanking')}
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: `${GAP_PX}px`,
            gridTemplateColumns: byText
              ? '1fr'
              : { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
            maxWidth: byText ? 760 : 'none',
          }}
        >
          {order.map((id, index) => {
            const candidate = byId.get(id)
            if (!candidate) return null
            const letter = letterOf(id)
            const held = drag?.id === id
            const offset = held ? drag.moved : (offsets?.[index] ?? { x: 0, y: 0 })
            const select = (
              <PlaceSelect
                ref={(element) => {
                  if (element) selects.current.set(id, element)
                  else selects.current.delete(id)
                }}
                letter={letter}
                place={index + 1}
                count={count}
                onPlace={(to) => place(id, to, 'place')}
              />
            )
            return (
              <Box
                component="li"
                key={id}
                ref={(element: HTMLElement | null) => {
                  if (element) items.current.set(id, element)
                  else items.current.delete(id)
                }}
                aria-label={t('judge.rowLabel', { place: index + 1, letter })}
                sx={{
                  position: 'relative',
                  display: 'grid',
                  // A phone: handle, picture, name and place in a row. Wider: a card, the
                  // picture over a footer with the handle, the name and the place.
                  gridTemplateAreas: byText
                    ? '"handle body"'
                    : { xs: '"handle picture body"', sm: '"picture picture" "handle body"' },
                  gridTemplateColumns: byText
                    ? '44px minmax(0, 1fr)'
                    : { xs: '44px minmax(0, 1fr) auto', sm: '44px minmax(0, 1fr)' },
                  columnGap: { xs: 1, sm: 1.5 },
                  rowGap: 1,
                  p: 1,
                  pl: byText ? 0 : { xs: 0, sm: 1 },
                  border: 1,
                  borderColor: held ? 'primary.main' : 'divider',
                  borderRadius: 1,
                  bgcolor: 'background.paper',
                  zIndex: held ? 2 : 'auto',
                  boxShadow: held ? 8 : 0,
                  transform: `translate(${offset.x}px, ${offset.y}px)`,
                  transition: drag && !held ? 'transform 150ms ease-out' : 'none',
                  '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
                }}
              >
                <ButtonBase
                  ref={(element: HTMLButtonElement | null) => {
                    if (element) handles.current.set(id, element)
                    else handles.current.delete(id)
                  }}
                  aria-label={t('judge.dragHandle', { letter })}
                  aria-describedby={instructionsId}
                  onPointerDown={(e) => onHandleDown(e, id, index)}
                  onPointerMove={onHandleMove}
                  onPointerUp={onHandleUp}
                  onPointerCancel={onHandleUp}
                  onKeyDown={(e) => onHandleKey(e, id, index)}
                  sx={{
                    gridArea: 'handle',
                    minHeight: 44,
                    borderRadius: 1,
                    color: 'text.secondary',
                    cursor: held ? 'grabbing' : 'grab',
                    touchAction: 'none',
                    '&:hover': { bgcolor: 'action.hover' },
                  }}
                >
                  <DragIndicatorIcon />
                </ButtonBase>
                {byText ? null : (
                  <ButtonBase
                    aria-label={t('judge.open', { letter })}
                    onClick={() => setViewing(positionOf.get(id) ?? 0)}
                    sx={{
                      gridArea: 'picture',
                      position: 'relative',
                      aspectRatio: '4 / 3',
                      borderRadius: 1,
                      overflow: 'hidden',
                      bgcolor: 'grey.900',
                      '& img': { transition: 'transform 200ms ease-out' },
                      '&:hover img': { transform: 'scale(1.03)' },
                      '@media (prefers-reduced-motion: reduce)': {
                        '& img': { transition: 'none' },
                      },
                    }}
                  >
                    <Box
                      component="img"
                      src={candidate.imageUrl}
                      alt={t('judge.candidate', { letter })}
                      draggable={false}
                      sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
                    />
                    <OpenInFullIcon
                      aria-hidden
                      fontSize="small"
                      sx={{
                        position: 'absolute',
                        right: 6,
                        bottom: 6,
                        p: 0.5,
                        boxSizing: 'content-box',
                        borderRadius: '50%',
                        color: '#fff',
                        bgcolor: 'rgba(0, 0, 0, 0.55)',
                      }}
                    />
                  </ButtonBase>
                )}
                {byText ? (
                  <Stack spacing={1} sx={{ gridArea: 'body', minWidth: 0, py: 0.5, pr: 0.5 }}>
                    <Stack direction="row" sx={{ alignItems: 'center', gap: 1.5 }}>
                      <Typography sx={{ fontWeight: 600, flex: 1 }}>
                        {t('judge.candidate', { letter })}
                      </Typography>
                      {select}
                    </Stack>
                    <CandidateTags letter={letter} tags={candidate.tags} />
                  </Stack>
                ) : (
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    sx={{
                      gridArea: 'body',
                      minWidth: 0,
                      gap: 1.5,
                      alignItems: { xs: 'flex-start', sm: 'center' },
                      justifyContent: { xs: 'center', sm: 'space-between' },
                      pt: { xs: 0, sm: 0.5 },
                    }}
                  >
                    <Typography sx={{ fontWeight: 600 }}>
                      {t('judge.candidate', { letter })}
                    </Typography>
                    {select}
                  </Stack>
                )}
              </Box>
            )
          })}
        </Box>
        <Button
          variant="contained"
          size="large"
          sx={{ mt: 2.5, minHeight: 44 }}
          disabled={judging}
          startIcon={judging ? <CircularProgress size={18} aria-hidden /> : null}
          onClick={() => setConfirming(true)}
        >
          {t('judge.submit')}
        </Button>
      </CardContent>
      {byText ? null : (
        <CandidateViewer
          candidates={candidates}
          index={viewing}
          onIndex={setViewing}
          onClose={() => setViewing(null)}
          placeOf={(id) => order.indexOf(id) + 1}
          onPlace={(id, to) => place(id, to)}
        />
      )}
      <RankingConfirmDialog
        open={confirming}
        ranking={order.flatMap((id) => byId.get(id) ?? [])}
        letterOf={letterOf}
        byText={byText}
        onBack={() => setConfirming(false)}
        onJudge={() => {
          setConfirming(false)
          onJudge(order)
        }}
      />
    </Card>
  )
}
