import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  describedConcepts,
  figureOfMeritAgainst,
  scoreWriteUp,
  SENSORY_COLUMNS,
} from '../src/sessions/scoring.ts'
import type { WriteUp } from '../src/sessions/scoring.ts'
import { loadVocabulary } from '../src/vocabulary.ts'
import type { Vocabulary } from '../src/vocabulary.ts'

// The real vocabulary, as the service reads it at start.
let vocabulary: Vocabulary
beforeAll(() => {
  vocabulary = loadVocabulary(fileURLToPath(new URL('../../descriptors/data', import.meta.url)))
})

/** The starter pool's lighthouse target. */
const LIGHTHOUSE = [
  'tower',
  'cliff',
  'sea',
  'waves',
  'structure',
  'tall',
  'vertical',
  'white',
  'gray',
  'rough',
  'beam',
]
const AT = '2026-01-01T10:00:00.000Z'
const described = (writeUp: WriteUp) => describedConcepts(writeUp, vocabulary).concepts
const notes = (language: WriteUp['language'], text: string): WriteUp => ({
  language,
  stage3: { notes: text },
})

describe('the lighthouse walkthrough', () => {
  const writeUp: WriteUp = {
    language: 'en',
    stage4: { rows: [{ AOL: 'lighthouse', AOLS: 'tower by sea', S: 'grey, cold' }] },
  }

  it('matches tower and sea from AOL/S and gray from S, and keeps the AOL apart', () => {
    const score = scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary)
    expect(score.described).toEqual(['gray', 'cold', 'tower', 'sea'])
    expect(score.matched).toEqual(['gray', 'tower', 'sea'])
    expect(score.aols).toEqual(['lighthouse'])
    expect(score.scored).toEqual(['stage4.S', 'stage4.AOLS'])
    expect(score.missed).toEqual(LIGHTHOUSE.filter((t) => !['gray', 'tower', 'sea'].includes(t)))
  })

  it('keeps May et al.’s figure of merit: accuracy × reliability', () => {
    const score = scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary)
    expect(score.accuracy).toBe(0.2727) // 3 of 11 tags described
    expect(score.reliability).toBe(0.75) // 3 of 4 described concepts tagged
    expect(score.figureOfMerit).toBe(0.2045) // (3/11)(3/4), to 4 places
  })
})

describe('analytic overlays', () => {
  it('never scores an AOL of the matrix or of an AOL break, even one naming the target', () => {
    const writeUp: WriteUp = {
      language: 'en',
      stage4: { rows: [{ AOL: '  tower  ' }, { AOL: ' ' }] },
      breaks: [
        { kind: 'AOL', text: 'sea', at: AT },
        { kind: 'AOL_DRIVE', text: 'white cliff', at: AT },
        { kind: 'BK', text: 'waves', at: AT },
        { kind: 'CONFUSION', text: 'beam', at: AT },
        { kind: 'AOL', at: AT },
      ],
    }
    const score = scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary)
    expect(score.described).toEqual([])
    expect(score.figureOfMerit).toBe(0)
    expect(score.aols).toEqual(['tower', 'sea', 'white cliff'])
    expect(score.scored).toEqual([])
  })

  it('keeps at most 400 AOLs of at most 500 characters', () => {
    // More breaks than the contract lets a save hold, as an older stored write-up might have.
    const writeUp: WriteUp = {
      stage4: { rows: Array.from({ length: 100 }, () => ({ AOL: 'lighthouse '.repeat(60) })) },
      breaks: Array.from({ length: 400 }, (_, i) => ({ kind: 'AOL', text: `a${i}`, at: AT })),
    }
    const { aols } = describedConcepts(writeUp, vocabulary)
    expect(aols).toHaveLength(400)
    expect(aols[0]).toHaveLength(500)
    expect(aols.at(-1)).toBe('a299')
  })
})

describe('every part of the write-up', () => {
  const full: WriteUp = {
    language: 'en',
    stage1: {
      ideograms: [
        { a: 'rising', b: 'land' },
        { a: '', b: '  ' },
      ],
    },
    stage2: Object.fromEntries(Object.keys(SENSORY_COLUMNS).map((c) => [c, ['cold']])),
    aestheticImpact: 'awe',
    stage3: { notes: 'a tower' },
    stage4: {
      rows: [
        { S: 'gray', D: 'tall', AI: 'awe', EI: 'calm', T: 'rock', I: 'museum', AOLS: 'sea' },
        { AOL: 'lighthouse' },
      ],
    },
    summary: 'white',
  }

  it('lists the parts it read, in page order, and only those with text', () => {
    expect(describedConcepts(full, vocabulary).scored).toEqual([
      'stage1.a',
      'stage1.b',
      'stage2.colours',
      'stage2.textures',
      'stage2.temperatures',
      'stage2.sounds',
      'stage2.smells',
      'stage2.tastes',
      'stage2.luminance',
      'stage2.energetics',
      'stage2.dimensionals',
      'aestheticImpact',
      'stage3.notes',
      'stage4.S',
      'stage4.D',
      'stage4.AI',
      'stage4.EI',
      'stage4.T',
      'stage4.I',
      'stage4.AOLS',
    ])
  })

  it('reads the concepts of every scored part and nothing of the summary or the AOLs', () => {
    expect(described(full)).toEqual(
      expect.arrayContaining([
        'rising',
        'land-gestalt',
        'cold',
        'awe',
        'tower',
        'gray',
        'tall',
        'sea',
      ]),
    )
    expect(described(full)).toEqual(expect.arrayContaining(['calm', 'rock', 'museum']))
    expect(described(full)).not.toContain('white')
    expect(described(full)).not.toContain('lighthouse')
  })
})

describe('words in free text', () => {
  it('splits multi-word entries and free text, and stop words name nothing', () => {
    expect(described(notes('en', 'A tower by the sea, grey and cold.'))).toEqual([
      'tower',
      'sea',
      'gray',
      'cold',
    ])
    // "or" and "but" are English stop words, and French for gold and goal.
    expect(described(notes('en', 'tower or sea, but the'))).toEqual(['tower', 'sea'])
  })

  it('matches a vocabulary phrase, longest first, before its words', () => {
    expect(described(notes('en', 'black and white; hot to the touch; light grey'))).toEqual([
      'black-and-white',
      'hot-to-the-touch',
      'light-gray',
    ])
    expect(described(notes('fr', 'au-dessus, en dessous'))).toEqual(['above', 'below'])
  })

  it('matches British spellings of the American vocabulary', () => {
    expect(described(notes('en', 'grey'))).toEqual(['gray'])
    expect(described(notes('en', 'colourful, mouldy, savoury'))).toEqual([
      'colorful',
      'moldy',
      'savory',
    ])
  })

  it('matches English plurals and comparatives', () => {
    expect(described(notes('en', 'towers, cliffs, rougher, taller, whiter'))).toEqual([
      'tower',
      'cliff',
      'rough',
      'tall',
      'white',
    ])
  })

  it.each([
    ['de', 'kalte Steine, ein kaltes Meer, zwei Türme, raue Klippen'],
    ['fr', 'une pierre froide, des murs froids, la mer, deux tours, des falaises rugueuses'],
    ['es', 'una piedra fría, días fríos, el mar, dos torres, acantilados ásperos'],
    ['it', 'una pietra fredda, giorni freddi, il mare, due torri, ruvide'],
  ] as const)('matches inflected words in %s', (language, text) => {
    expect(described(notes(language, text))).toEqual(
      expect.arrayContaining(['cold', 'sea', 'tower', 'rough']),
    )
  })

  it('finds Japanese words in unspaced text, longest first, with i-adjective forms', () => {
    const found = described(notes('ja', '海洋のそばの灯台は灰色で冷たく、白かった'))
    expect(found).toEqual(['ocean', 'lighthouse', 'gray', 'cold', 'white'])
  })

  it('finds Chinese words in unspaced text, longest first', () => {
    const found = described(notes('zh', '灯塔在海边，灰色，冷'))
    expect(found).toEqual(['lighthouse', 'sea', 'gray', 'cold'])
    expect(found).not.toContain('tower') // 塔 inside 灯塔
  })

  it('reads a stop word of the write-up’s language as nothing, though another language has it', () => {
    // "sea" is Spanish for "be" (a stop word) and English for the sea.
    expect(described(notes('es', 'sea'))).toEqual([])
    expect(described(notes('en', 'sea'))).toEqual(['sea'])
  })

  it('prefers the write-up’s language, then any language', () => {
    expect(described(notes('en', 'mare'))).toEqual(['sea']) // Italian
    expect(described(notes('de', 'Meer'))).toEqual(['sea'])
  })
})

describe('Stage II', () => {
  it('counts per column as before, with the column’s category preferred', () => {
    const writeUp: WriteUp = {
      language: 'de',
      stage2: {
        temperatures: ['kalt', 'cold', { word: 'warm', conceptId: 'hot' }, 'heats'],
        colours: ['grey, white'],
        textures: ['xyzzy'],
      },
      stage4: { rows: [{ S: 'rough', D: 'tall' }] },
    }
    const score = scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary)
    expect(score.byCategory).toEqual({
      temperatures: { described: 3, matched: 0 },
      colours: { described: 2, matched: 2 },
    })
    // "heats" is a stem shared by heat (energy) and heated (temperatures).
    expect(describedConcepts(writeUp, vocabulary).byColumn.temperatures).toEqual([
      'cold',
      'hot',
      'heated',
    ])
    expect(described(notes('en', 'heats'))).toEqual(['heat'])
  })

  it('lists Stage II entries and D cells that name nothing, not every unknown word', () => {
    const writeUp: WriteUp = {
      language: 'en',
      stage2: { textures: ['xyzzy', 'tower by sea'] },
      aestheticImpact: 'quux',
      stage3: { notes: 'plugh frobnicate' },
      stage4: { rows: [{ D: 'tall, wibble; vertical', S: 'grault' }] },
    }
    expect(scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary).unmatchedWords).toEqual([
      'xyzzy',
      'wibble',
    ])
  })
})

describe('the figure of merit against each candidate', () => {
  it('equals the score’s figure of merit against each set of tags', () => {
    const writeUp: WriteUp = {
      language: 'en',
      stage2: { colours: ['white', 'gray'], temperatures: ['cold'] },
      stage4: { rows: [{ S: 'rough rock', AOLS: 'tower by the sea' }] },
    }
    const once = describedConcepts(writeUp, vocabulary)
    const candidates = [LIGHTHOUSE, ['desert', 'sand', 'hot'], ['sea', 'waves', 'cold'], []]
    const merits = candidates.map((tags) => figureOfMeritAgainst(once, tags))
    expect(merits).toEqual(
      candidates.map((tags) => scoreWriteUp(writeUp, tags, vocabulary).figureOfMerit),
    )
    expect(merits[0]).toBeGreaterThan(0)
    expect(merits[1]).toBe(0)
  })
})

describe('a write-up with every field full', () => {
  it('is scored', () => {
    const text = (n: number) =>
      'The tower stands tall by the grey sea, cold and rough; waves break on a white cliff. '
        .repeat(Math.ceil(n / 80))
        .slice(0, n)
    const writeUp: WriteUp = {
      language: 'en',
      stage1: { ideograms: Array.from({ length: 20 }, () => ({ a: text(500), b: text(500) })) },
      stage2: Object.fromEntries(
        Object.keys(SENSORY_COLUMNS).map((c) => [c, Array.from({ length: 100 }, () => text(60))]),
      ),
      aestheticImpact: text(2000),
      stage3: { notes: text(2000) },
      stage4: {
        rows: Array.from({ length: 100 }, () => ({
          S: text(500),
          D: text(500),
          AI: text(500),
          EI: text(500),
          T: text(500),
          I: text(500),
          AOL: text(500),
          AOLS: text(500),
        })),
      },
    }
    const score = scoreWriteUp(writeUp, LIGHTHOUSE, vocabulary)
    expect(score.scored).toHaveLength(20)
    expect(score.matched).toEqual(
      expect.arrayContaining(['tower', 'tall', 'gray', 'sea', 'rough', 'waves', 'white', 'cliff']),
    )
    expect(score.aols).toHaveLength(100)
  })
})
