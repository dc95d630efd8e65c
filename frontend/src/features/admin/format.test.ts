import { describe, expect, it } from 'vitest'
import { categoryLabel, formatBytes, formatSubmitted, shortId } from './format.ts'

describe('admin formats', () => {
  it('shows a time as MMM dd, yyyy at HH:mm', () => {
    const local = new Date(2026, 2, 5, 14, 7)
    expect(formatSubmitted(local.toISOString())).toBe('Mar 05, 2026 at 14:07')
    expect(formatSubmitted('not a date')).toBe('')
  })

  it('cuts a creator id to 8 characters', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567')
    expect(shortId(null)).toBe('—')
  })

  it('names the category kind', () => {
    expect(categoryLabel({ gestaltId: 3 })).toBe('Gestalt (Stage 1-2)')
    expect(categoryLabel({ gestaltId: null })).toBe('Perception (Stage 2-3/4-6)')
    const names = {
      gestalts: new Map([[3, { name: 'Biological', stage: 'Stage 1-2' }]]),
      perceptions: new Map([[41, { name: 'Colours', stage: 'Stage 2-3' }]]),
    }
    expect(categoryLabel({ gestaltId: 3 }, names)).toBe('Gestalt: Biological (Stage 1-2)')
    expect(categoryLabel({ gestaltId: null, perceptionId: 41 }, names)).toBe(
      'Perception: Colours (Stage 2-3)',
    )
    expect(categoryLabel({ gestaltId: 9 }, names)).toBe('Gestalt (Stage 1-2)')
  })

  it('shows sizes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
  })
})
