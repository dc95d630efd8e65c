import { describe, expect, it } from 'vitest'
import { candidateLetter, dropIndex, moveItem, offsetsWhileDragging, withPlace } from './ranking.ts'
import type { Box } from './ranking.ts'

/** Five rows of 88 px (and one of 188) 12 px apart, as a list draws them. */
const list = (heights = [88, 88, 88, 88, 88]): Box[] => {
  let y = 0
  return heights.map((height) => {
    const box = { x: 0, y, width: 300, height }
    y += height + 12
    return box
  })
}
/** Five cards of 200 × 180 in a grid of three columns, 10 px apart. */
const grid: Box[] = [0, 1, 2, 3, 4].map((i) => ({
  x: (i % 3) * 210,
  y: Math.floor(i / 3) * 190,
  width: 200,
  height: 180,
}))

describe('ranking the candidates', () => {
  it('gives a candidate the place chosen by number and keeps the others in their order', () => {
    const order = ['a', 'b', 'c', 'd', 'e']
    expect(withPlace(order, 'e', 1)).toEqual(['e', 'a', 'b', 'c', 'd'])
    expect(withPlace(order, 'a', 5)).toEqual(['b', 'c', 'd', 'e', 'a'])
    expect(withPlace(order, 'c', 2)).toEqual(['a', 'c', 'b', 'd', 'e'])
    expect(withPlace(order, 'c', 3)).toEqual(order)
  })

  it('clamps a place outside the list and ignores a candidate that is not in it', () => {
    const order = ['a', 'b', 'c']
    expect(withPlace(order, 'b', 9)).toEqual(['a', 'c', 'b'])
    expect(withPlace(order, 'b', 0)).toEqual(['b', 'a', 'c'])
    expect(withPlace(order, 'x', 1)).toEqual(order)
    expect(moveItem(order, -1, 0)).toEqual(order)
  })

  it('drops a row dragged in a list after every other row whose centre it has passed', () => {
    // Centres at 44, 144, 244, 344, 444; the third row (index 2) is dragged.
    const rows = list()
    expect(dropIndex(rows, 2, { x: 150, y: 244 })).toBe(2)
    expect(dropIndex(rows, 2, { x: 150, y: 143 })).toBe(1)
    expect(dropIndex(rows, 2, { x: 150, y: 10 })).toBe(0)
    expect(dropIndex(rows, 2, { x: 150, y: 345 })).toBe(3)
    expect(dropIndex(rows, 2, { x: 150, y: 900 })).toBe(4)
    expect(dropIndex(rows, 4, { x: 150, y: 40 })).toBe(0)
  })

  it('drops a card dragged in a grid in the place of the nearest card', () => {
    // The last card (second row, middle) held over the first row's last card, then the first.
    expect(dropIndex(grid, 4, { x: 520, y: 80 })).toBe(2)
    expect(dropIndex(grid, 4, { x: 90, y: 100 })).toBe(0)
    expect(dropIndex(grid, 4, { x: 330, y: 290 })).toBe(4)
  })

  it('moves the rows a drag passes aside by the dragged row’s height, rows of any height', () => {
    // Row 1 (188 px tall) held over place 3: rows 2 and 3 move up by 200, the rest stay.
    const rows = list([88, 188, 88, 88, 88])
    const up = offsetsWhileDragging(rows, 1, 3, 12).map((o) => o.y)
    expect(up).toEqual([0, 200, -200, -200, 0])
    // Row 4 held over place 1: rows 1 to 3 move down by 100.
    const down = offsetsWhileDragging(list(), 4, 1, 12).map((o) => o.y)
    expect(down).toEqual([0, 100, 100, 100, -300])
    expect(offsetsWhileDragging(list(), 2, 2, 12).every((o) => o.x === 0 && o.y === 0)).toBe(true)
  })

  it('moves each card a drag passes in a grid into the next card’s place', () => {
    // The last card held over the first: every other card moves one place on, wrapping rows.
    const offsets = offsetsWhileDragging(grid, 4, 0, 10)
    expect(offsets).toEqual([
      { x: 210, y: 0 },
      { x: 210, y: 0 },
      { x: -420, y: 190 },
      { x: 210, y: 0 },
      { x: -210, y: -190 },
    ])
  })

  it('names candidates by letter, the same whatever their place', () => {
    expect([0, 1, 4, 9].map(candidateLetter)).toEqual(['A', 'B', 'E', 'J'])
  })
})
