// The full-screen candidate view's gestures, as plain arithmetic: pinch and double-tap zoom
// about a point, panning kept inside the picture, and when a horizontal drag is a swipe.

export type Point = { x: number; y: number }

/**
 * How the picture is drawn: `translate(x, y) scale(scale)` about the centre of its box, so the
 * point `q` of the unzoomed picture (from the box's centre) shows at `(x, y) + scale · q`.
 */
export type View = { scale: number; x: number; y: number }

export const UNZOOMED: View = { scale: 1, x: 0, y: 0 }
export const MAX_SCALE = 4
/** The zoom a double tap (or the zoom button) goes to from unzoomed. */
export const TAP_SCALE = 2.5

export const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y)
export const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 })

const clampScale = (scale: number) => Math.min(MAX_SCALE, Math.max(1, scale))

/**
 * The view zoomed to `scale` with the picture's point under `at` (from the box's centre) still
 * under it, then moved so that point follows to `to` (a pinch whose fingers also move).
 */
export function zoomAbout(view: View, at: Point, scale: number, to: Point = at): View {
  const next = clampScale(scale)
  const ratio = next / view.scale
  return { scale: next, x: to.x - ratio * (at.x - view.x), y: to.y - ratio * (at.y - view.y) }
}

/**
 * The view with its offset kept so that the zoomed picture still covers its box (no empty
 * margin dragged into sight); unzoomed, centred.
 */
export function clampView(view: View, box: { width: number; height: number }): View {
  const scale = clampScale(view.scale)
  if (scale === 1) return UNZOOMED
  const maxX = ((scale - 1) * box.width) / 2
  const maxY = ((scale - 1) * box.height) / 2
  return {
    scale,
    x: Math.min(maxX, Math.max(-maxX, view.x)),
    y: Math.min(maxY, Math.max(-maxY, view.y)),
  }
}

/**
 * What a one-finger drag of the unzoomed picture asks for when it ends: +1 (the next
 * candidate: dragged to the left), -1 (the previous) or 0. A swipe is mostly sideways and
 * either long (a quarter of the width, at most 100 px) or quick (a flick of 30 px or more).
 */
export function swipeStep(dx: number, dy: number, ms: number, width: number): -1 | 0 | 1 {
  const across = Math.abs(dx)
  if (across < 30 || across < Math.abs(dy) * 1.5) return 0
  const long = across >= Math.min(100, width / 4)
  const quick = across / Math.max(ms, 1) >= 0.4
  if (!long && !quick) return 0
  return dx < 0 ? 1 : -1
}

/** A tap: pressed and released in place, quickly. */
export const isTap = (from: Point, to: Point, ms: number) => distance(from, to) < 10 && ms < 300

/** A second tap close in time and place to the first: a double tap. */
export const isDoubleTap = (
  first: { at: Point; time: number },
  second: { at: Point; time: number },
) => second.time - first.time < 350 && distance(first.at, second.at) < 30
