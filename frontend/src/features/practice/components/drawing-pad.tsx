import ClearIcon from '@mui/icons-material/Clear'
import UndoIcon from '@mui/icons-material/Undo'
import { Box, Button, Stack, Typography } from '@mui/material'
import { useEffect, useId, useRef } from 'react'
import type { PointerEvent as ReactPointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeDrawing } from '../api.ts'

type Point = [number, number, number, number]
type Stroke = Point[]

const EMPTY: PracticeDrawing = { strokes: [] }

function paint(canvas: HTMLCanvasElement, strokes: Stroke[]) {
  const ctx = canvas.getContext('2d')
  if (!ctx) return
  const { width, height } = canvas
  ctx.clearRect(0, 0, width, height)
  ctx.lineCap = 'round'
  ctx.lineJoin = 'round'
  ctx.strokeStyle = getComputedStyle(canvas).color
  for (const stroke of strokes) {
    for (let i = 1; i < stroke.length; i++) {
      const a = stroke[i - 1]
      const b = stroke[i]
      if (!a || !b) continue
      ctx.lineWidth = (1 + 3 * b[3]) * (width / 600) * 2
      ctx.beginPath()
      ctx.moveTo(a[0] * width, a[1] * height)
      ctx.lineTo(b[0] * width, b[1] * height)
      ctx.stroke()
    }
    if (stroke.length === 1 && stroke[0]) {
      ctx.beginPath()
      ctx.arc(stroke[0][0] * width, stroke[0][1] * height, 2, 0, Math.PI * 2)
      ctx.fill()
    }
  }
}

/**
 * A pad for the ideogram and the sketch: pointer, touch and pen (with pressure where the device
 * gives it), kept as strokes of [x, y, t, pressure] in 0..1 of the pad, so it redraws at any size.
 */
export function DrawingPad({
  label,
  value,
  onChange,
  readOnly = false,
  height = 220,
}: {
  label: string
  value: PracticeDrawing | undefined
  onChange?: (drawing: PracticeDrawing) => void
  readOnly?: boolean
  height?: number
}) {
  const { t } = useTranslation('practice')
  const canvas = useRef<HTMLCanvasElement>(null)
  const labelId = useId()
  const drawing = value ?? EMPTY
  const strokes = drawing.strokes as Stroke[]
  const current = useRef<{ stroke: Stroke; started: number } | null>(null)

  // The canvas's pixels follow its size on screen (and the device's pixel ratio).
  useEffect(() => {
    const element = canvas.current
    if (!element) return
    const resize = () => {
      const ratio = window.devicePixelRatio || 1
      element.width = Math.round(element.clientWidth * ratio)
      element.height = Math.round(element.clientHeight * ratio)
      paint(element, current.current ? [...strokes, current.current.stroke] : strokes)
    }
    resize()
    const observer = new ResizeObserver(resize)
    observer.observe(element)
    return () => observer.disconnect()
  }, [strokes])

  const pointOf = (event: ReactPointerEvent<HTMLCanvasElement>, started: number): Point => {
    const rect = event.currentTarget.getBoundingClientRect()
    const x = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width))
    const y = Math.min(1, Math.max(0, (event.clientY - rect.top) / rect.height))
    // A mouse reports 0.5 while a button is down; touch and pens report what they measure.
    const pressure = event.pressure > 0 ? event.pressure : 0.5
    return [
      Math.round(x * 10_000) / 10_000,
      Math.round(y * 10_000) / 10_000,
      Math.round(event.timeStamp - started),
      Math.round(pressure * 100) / 100,
    ]
  }

  const down = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (readOnly) return
    event.currentTarget.setPointerCapture(event.pointerId)
    const started = event.timeStamp
    current.current = { stroke: [pointOf(event, started)], started }
  }
  const move = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const live = current.current
    if (!live || readOnly) return
    live.stroke.push(pointOf(event, live.started))
    if (canvas.current) paint(canvas.current, [...strokes, live.stroke])
  }
  const up = () => {
    const live = current.current
    current.current = null
    if (!live || readOnly) return
    onChange?.({ strokes: [...strokes, live.stroke] })
  }

  return (
    <Box>
      <Typography variant="subtitle2" component="p" id={labelId} sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Box
        component="canvas"
        ref={canvas}
        role="img"
        aria-labelledby={labelId}
        aria-description={t('drawing.strokes', { count: strokes.length })}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        sx={{
          display: 'block',
          width: '100%',
          height,
          touchAction: 'none',
          cursor: readOnly ? 'default' : 'crosshair',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.paper',
          color: 'text.primary',
        }}
      />
      {readOnly ? null : (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button
            size="small"
            startIcon={<UndoIcon />}
            disabled={strokes.length === 0}
            onClick={() => onChange?.({ strokes: strokes.slice(0, -1) })}
            sx={{ minHeight: 44 }}
          >
            {t('drawing.undo')}
          </Button>
          <Button
            size="small"
            startIcon={<ClearIcon />}
            disabled={strokes.length === 0}
            onClick={() => onChange?.({ strokes: [] })}
            sx={{ minHeight: 44 }}
          >
            {t('drawing.clear')}
          </Button>
        </Stack>
      )}
    </Box>
  )
}
