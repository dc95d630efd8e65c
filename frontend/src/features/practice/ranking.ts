/** The ranking with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list]
  if (from < 0 || from >= out.length) return out
  const target = Math.max(0, Math.min(out.length - 1, to))
  const [item] = out.splice(from, 1)
  if (item !== undefined) out.splice(target, 0, item)
  return out
}

/** The ranking with `id` given `place` (1 = best match); the others keep their order. */
export function withPlace<T>(list: readonly T[], id: T, place: number): T[] {
  return moveItem(list, list.indexOf(id), place - 1)
}

/** An item's box on the page when a drag began. */
export type Box = { x: number; y: number; width: number; height: number }
type Offset = { x: number; y: number }

const centreOf = (b: Box): Offset => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })

/** How many items share the first row: 1 for a list, more for a grid. */
const columnsOf = (boxes: readonly Box[]) =>
  Math.max(1, boxes.filter((b) => Math.abs(b.y - (boxes[0]?.y ?? 0)) < 2).length)

/**
 * Where a dragged item lands, its centre now at `centre`. In a list: after every other item whose
 * centre lies above it (items of any height). In a grid of equal cards: in the place of the card
 * whose centre is nearest. `boxes` are the items' boxes when the drag began, in their order.
 */
export function dropIndex(boxes: readonly Box[], from: number, centre: Offset): number {
  if (columnsOf(boxes) === 1) {
    let index = 0
    boxes.forEach((b, i) => {
      if (i !== from && centreOf(b).y < centre.y) index++
    })
    return index
  }
  let nearest = from
  let best = Infinity
  boxes.forEach((b, i) => {
    const c = centreOf(b)
    const d = Math.hypot(c.x - centre.x, c.y - centre.y)
    if (d < best) {
      best = d
      nearest = i
    }
  })
  return nearest
}

/**
 * How far each item is moved from its own place while the item at `from` is held over `to`:
 * where it will stand once the dragged item is dropped there. A list stacks the items anew
 * (with `gap` between them); a grid of equal cards moves each into its new card's place.
 */
export function offsetsWhileDragging(
  boxes: readonly Box[],
  from: number,
  to: number,
  gap: number,
): Offset[] {
  const order = moveItem(
    boxes.map((_, i) => i),
    from,
    to,
  )
  const offsets: Offset[] = boxes.map(() => ({ x: 0, y: 0 }))
  if (columnsOf(boxes) === 1) {
    let top = boxes[0]?.y ?? 0
    for (const i of order) {
      const box = boxes[i]
      if (!box) continue
      offsets[i] = { x: 0, y: top - box.y }
      top += box.height + gap
    }
    return offsets
  }
  order.forEach((i, place) => {
    const box = boxes[i]
    const slot = boxes[place]
    if (box && slot) offsets[i] = { x: slot.x - box.x, y: slot.y - box.y }
  })
  return offsets
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * A candidate's name while it is judged: a letter by its position in the set the server sent,
 * so it stays the same however the viewer ranks it and says nothing about the target.
 */
export const candidateLetter = (index: number): string => LETTERS[index] ?? String(index + 1)
