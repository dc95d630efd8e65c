import { describe, expect, it } from 'vitest'
import type { PracticeWriteUp } from './api.ts'
import { differences, mergeWriteUps, sameWriteUp, startingPoint } from './write-up-drafts.ts'
import type { WriteUpDraft } from './write-up-drafts.ts'

const open = (writeUp: PracticeWriteUp, revision: number) =>
  ({ writeUp, revision, status: 'open' }) as const

const draft = (value: PracticeWriteUp, revision: number, more: Partial<WriteUpDraft> = {}) => ({
  userId: 'u1',
  key: 's1',
  value,
  revision,
  saved: false,
  sent: null,
  changedAt: '2026-01-01T00:00:00.000Z',
  ...more,
})

describe('where the session page starts', () => {
  it('restores text typed on the server’s revision and sends it', () => {
    const start = startingPoint(open({ summary: 'a' }, 3), draft({ summary: 'a tower' }, 3))
    expect(start).toMatchObject({ writeUp: { summary: 'a tower' }, revision: 3, unsaved: true })
    expect(start.theirs).toBeNull()
  })

  it('keeps the draft over an older copy of the session (opened offline from the worker’s copy)', () => {
    const saved = startingPoint(
      open({ summary: 'a' }, 3),
      draft({ summary: 'a tower' }, 5, { saved: true }),
    )
    expect(saved).toMatchObject({ writeUp: { summary: 'a tower' }, revision: 5, unsaved: false })
    const unsaved = startingPoint(open({ summary: 'a' }, 3), draft({ summary: 'a tower by' }, 5))
    expect(unsaved).toMatchObject({
      writeUp: { summary: 'a tower by' },
      revision: 5,
      unsaved: true,
    })
  })

  it('takes the server’s copy over a saved draft it has replaced', () => {
    const start = startingPoint(
      open({ summary: 'newer' }, 6),
      draft({ summary: 'older' }, 5, { saved: true }),
    )
    expect(start).toMatchObject({ writeUp: { summary: 'newer' }, revision: 6, unsaved: false })
  })

  it('goes on from a save whose answer was lost', () => {
    const start = startingPoint(
      open({ summary: 'sent' }, 6),
      draft({ summary: 'sent, then more' }, 5, { sent: { summary: 'sent' } }),
    )
    expect(start).toMatchObject({
      writeUp: { summary: 'sent, then more' },
      revision: 6,
      unsaved: true,
      theirs: null,
    })
  })

  it('shows both when another device saved over the revision the draft was written on', () => {
    const start = startingPoint(open({ summary: 'theirs' }, 6), draft({ summary: 'mine' }, 5))
    expect(start.writeUp).toEqual({ summary: 'mine' })
    expect(start.theirs).toEqual({ writeUp: { summary: 'theirs' }, revision: 6 })
  })

  it('keeps unsaved text of a session locked meanwhile apart, and lets a saved copy go', () => {
    const locked = { writeUp: { summary: 'locked' }, revision: 6, status: 'locked' } as const
    expect(startingPoint(locked, draft({ summary: 'later' }, 6)).leftOver).toEqual({
      summary: 'later',
    })
    expect(startingPoint(locked, draft({ summary: 'x' }, 6, { saved: true })).leftOver).toBeNull()
  })

  it('compares write-ups whatever the order of their keys', () => {
    expect(
      sameWriteUp(
        { summary: 's', stage3: { notes: 'n', sketch: { strokes: [] } } },
        { stage3: { sketch: { strokes: [] }, notes: 'n' }, summary: 's' },
      ),
    ).toBe(true)
  })
})

describe('keeping both write-ups', () => {
  const line: [number, number, number, number][] = [
    [0.1, 0.1, 0, 0.5],
    [0.9, 0.9, 10, 0.5],
  ]
  const other: [number, number, number, number][] = [
    [0.1, 0.9, 0, 0.5],
    [0.9, 0.1, 10, 0.5],
  ]

  it('loses no word, drawing or break of either', () => {
    const mine: PracticeWriteUp = {
      language: 'en',
      stage1: { ideograms: [{ drawing: { strokes: [line] }, a: 'rising', b: 'land' }] },
      stage2: { textures: ['rough', { word: 'cold', conceptId: 'c1' }] },
      stage3: { sketch: { strokes: [line] }, notes: 'a tower' },
      stage4: { rows: [{ S: 'grey' }] },
      breaks: [{ kind: 'AOL', at: '2026-01-01T10:00:00.000Z', text: 'lighthouse' }],
      summary: 'a tall structure',
    }
    const theirs: PracticeWriteUp = {
      language: 'en',
      stage1: { ideograms: [{ drawing: { strokes: [other] }, a: 'flat' }] },
      stage2: { textures: ['rough', 'smooth'], colours: ['blue'] },
      stage3: { sketch: { strokes: [other] } },
      stage4: { rows: [{ S: 'grey', D: 'tall' }, { AI: 'calm' }] },
      breaks: [
        { kind: 'AOL', at: '2026-01-01T10:00:00.000Z', text: 'tower' },
        { kind: 'BK', at: '2026-01-01T09:00:00.000Z' },
      ],
      summary: 'near water',
    }
    const { writeUp, fits } = mergeWriteUps(mine, theirs)
    expect(fits).toBe(true)
    expect(writeUp).toEqual({
      language: 'en',
      stage1: {
        ideograms: [
          { drawing: { strokes: [line] }, a: 'rising', b: 'land' },
          { drawing: { strokes: [other] }, a: 'flat' },
        ],
      },
      stage2: {
        textures: ['rough', { word: 'cold', conceptId: 'c1' }, 'smooth'],
        colours: ['blue'],
      },
      stage3: { sketch: { strokes: [line, other] }, notes: 'a tower' },
      stage4: { rows: [{ S: 'grey', D: 'tall' }, { AI: 'calm' }] },
      breaks: [
        { kind: 'BK', at: '2026-01-01T09:00:00.000Z' },
        { kind: 'AOL', at: '2026-01-01T10:00:00.000Z', text: 'lighthouse / tower' },
      ],
      summary: 'a tall structure\n\nnear water',
    })
  })

  it('joins a text only where neither holds the other', () => {
    const merged = (a: string, b: string) =>
      mergeWriteUps({ summary: a }, { summary: b }).writeUp.summary
    expect(merged('a tower', 'a tower near water')).toBe('a tower near water')
    expect(merged('a tower near water', 'tower')).toBe('a tower near water')
    expect(merged('', 'water')).toBe('water')
    expect(merged('tower', 'water')).toBe('tower\n\nwater')
  })

  it('leaves out a part neither wrote, so the editor still offers its first pad and row', () => {
    expect(mergeWriteUps({ summary: 'tower' }, { summary: 'water' }).writeUp).toEqual({
      summary: 'tower\n\nwater',
    })
  })

  it('says when both together are more than the server takes', () => {
    const [x, y] = ['x'.repeat(3000), 'y'.repeat(3000)]
    expect(mergeWriteUps({ summary: x }, { summary: y }).fits).toBe(false)
    expect(mergeWriteUps({ summary: x }, { summary: 'y' }).fits).toBe(true)
  })
})

describe('what the conflict view shows', () => {
  it('lists only the parts that differ, in the order of the page', () => {
    const found = differences(
      { stage2: { textures: ['rough'] }, summary: 'mine', aestheticImpact: 'calm' },
      { stage2: { textures: ['rough', 'smooth'] }, summary: 'theirs', aestheticImpact: 'calm' },
    )
    expect(found.map((d) => d.id)).toEqual(['stage2-textures', 'summary'])
    expect(found[1]).toMatchObject({
      mine: { kind: 'text', text: 'mine' },
      theirs: { kind: 'text', text: 'theirs' },
    })
  })
})
