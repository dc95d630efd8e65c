import { describe, expect, it } from 'vitest'
import {
  clampView,
  isDoubleTap,
  isTap,
  MAX_SCALE,
  swipeStep,
  UNZOOMED,
  zoomAbout,
} from './gestures.ts'
import type { Point, View } from './gestures.ts'

/** Where the picture's point `q` (from the box's centre, unzoomed) shows in `view`. */
const shown = (view: View, q: Point): Point => ({
  x: view.x + view.scale * q.x,
  y: view.y + view.scale * q.y,
})
/** The picture's point that shows at `p` in `view`. */
const under = (view: View, p: Point): Point => ({
  x: (p.x - view.x) / view.scale,
  y: (p.y - view.y) / view.scale,
})

describe('zooming the full-screen candidate', () => {
  it('keeps the point between the fingers under them while the pinch zooms', () => {
    const at = { x: 120, y: -40 }
    const before = under(UNZOOMED, at)
    const zoomed = zoomAbout(UNZOOMED, at, 2)
    expect(zoomed.scale).toBe(2)
    expect(shown(zoomed, before)).toEqual(at)
    // Zoomed again about another point, from a zoomed and moved view.
    const at2 = { x: -60, y: 30 }
    const before2 = under(zoomed, at2)
    const again = zoomAbout(zoomed, at2, 3)
    expect(shown(again, before2).x).toBeCloseTo(at2.x)
    expect(shown(again, before2).y).toBeCloseTo(at2.y)
  })

  it('moves the picture with the fingers when they move while pinching', () => {
    const at = { x: 10, y: 10 }
    const to = { x: 60, y: -20 }
    const point = under(UNZOOMED, at)
    const view = zoomAbout(UNZOOMED, at, 1.5, to)
    expect(shown(view, point)).toEqual(to)
  })

  it('zooms no further out than the whole picture and no further in than the maximum', () => {
    expect(zoomAbout(UNZOOMED, { x: 50, y: 50 }, 0.3).scale).toBe(1)
    expect(zoomAbout(UNZOOMED, { x: 50, y: 50 }, 40).scale).toBe(MAX_SCALE)
  })

  it('keeps a zoomed picture covering its box, and centres it unzoomed', () => {
    const box = { width: 400, height: 300 }
    // At 2×, the picture reaches 200 px and 150 px beyond the box on each side.
    expect(clampView({ scale: 2, x: 500, y: -500 }, box)).toEqual({ scale: 2, x: 200, y: -150 })
    expect(clampView({ scale: 2, x: 50, y: 20 }, box)).toEqual({ scale: 2, x: 50, y: 20 })
    expect(clampView({ scale: 1, x: 50, y: 20 }, box)).toEqual(UNZOOMED)
  })
})

describe('swiping between candidates', () => {
  it('goes to the next candidate on a long drag to the left and back on one to the right', () => {
    expect(swipeStep(-120, 5, 600, 390)).toBe(1)
    expect(swipeStep(120, -5, 600, 390)).toBe(-1)
  })

  it('takes a quick flick as a swipe, and a slow short drag as none', () => {
    expect(swipeStep(-40, 0, 60, 390)).toBe(1)
    expect(swipeStep(-40, 0, 600, 390)).toBe(0)
  })

  it('leaves taps and mostly vertical drags alone', () => {
    expect(swipeStep(-8, 0, 50, 390)).toBe(0)
    expect(swipeStep(-120, 200, 300, 390)).toBe(0)
  })

  it('needs a quarter of a narrow box, at most 100 px of a wide one', () => {
    expect(swipeStep(-70, 0, 1000, 240)).toBe(1)
    expect(swipeStep(-55, 0, 1000, 240)).toBe(0)
    expect(swipeStep(-101, 0, 1000, 1400)).toBe(1)
  })
})

describe('taps', () => {
  it('counts a quick press in place as a tap, and two close together as a double tap', () => {
    expect(isTap({ x: 0, y: 0 }, { x: 4, y: 3 }, 120)).toBe(true)
    expect(isTap({ x: 0, y: 0 }, { x: 40, y: 0 }, 120)).toBe(false)
    expect(isTap({ x: 0, y: 0 }, { x: 0, y: 0 }, 800)).toBe(false)
    const first = { at: { x: 100, y: 100 }, time: 1000 }
    expect(isDoubleTap(first, { at: { x: 110, y: 95 }, time: 1250 })).toBe(true)
    expect(isDoubleTap(first, { at: { x: 110, y: 95 }, time: 1500 })).toBe(false)
    expect(isDoubleTap(first, { at: { x: 200, y: 100 }, time: 1200 })).toBe(false)
  })
})
