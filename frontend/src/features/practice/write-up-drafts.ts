import type { Draft } from '../../lib/offline/draft-store.ts'
import type { PracticeSession, PracticeWriteUp } from './api.ts'

/** A session's write-up as this device keeps it (lib/offline/draft-store.ts). */
export type WriteUpDraft = Draft<PracticeWriteUp>

/** The server's copy of a write-up: its text and revision. */
export interface ServerCopy {
  writeUp: PracticeWriteUp
  revision: number
}

/** Where the session page starts from, the server's copy and this device's draft weighed. */
export interface StartingPoint {
  /** What the editor shows. */
  writeUp: PracticeWriteUp
  /** The revision the next save sends. */
  revision: number
  /** Whether `writeUp` waits to be sent (then it is sent at once). */
  unsaved: boolean
  /** Another device saved over the text this draft was written on: both are shown. */
  theirs: ServerCopy | null
  /** Text of this device the server never took, and no longer can (the write-up is locked). */
  leftOver: PracticeWriteUp | null
}

/** JSON with every object's keys sorted: the server's database keeps them in its own order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

export function sameWriteUp(a: PracticeWriteUp, b: PracticeWriteUp): boolean {
  return canonical(a) === canonical(b)
}

/**
 * The draft, where it is newer than the server's copy: text written on the server's revision
 * (or on a later one than the copy the service worker kept offline) is restored and sent; text
 * written on a revision another device has since replaced is shown beside that device's.
 */
export function startingPoint(
  session: Pick<PracticeSession, 'writeUp' | 'revision' | 'status'>,
  draft: WriteUpDraft | null,
): StartingPoint {
  const server: StartingPoint = {
    writeUp: session.writeUp,
    revision: session.revision,
    unsaved: false,
    theirs: null,
    leftOver: null,
  }
  if (!draft || sameWriteUp(draft.value, session.writeUp)) return server
  if (session.status !== 'open') return draft.saved ? server : { ...server, leftOver: draft.value }
  const mine = { ...server, writeUp: draft.value, unsaved: !draft.saved }
  // Saved or not, the server's copy is no newer than the draft: an offline copy of the session.
  if (draft.revision >= session.revision) return { ...mine, revision: draft.revision }
  if (draft.saved) return server
  // The last save sent arrived; nothing came between it and the server's copy.
  if (draft.sent && sameWriteUp(draft.sent, session.writeUp)) return mine
  return {
    ...mine,
    revision: draft.revision,
    theirs: { writeUp: session.writeUp, revision: session.revision },
  }
}

/** The contract's limits (openapi.yaml, PracticeWriteUp) that a merge has to stay within. */
const LIMITS = {
  line: 500,
  text: 2000,
  summary: 5000,
  ideograms: 20,
  column: 100,
  rows: 100,
  breaks: 200,
  strokes: 2000,
  points: 20_000,
}

type Drawing = NonNullable<NonNullable<PracticeWriteUp['stage3']>['sketch']>
type Ideogram = NonNullable<NonNullable<PracticeWriteUp['stage1']>['ideograms']>[number]
type Row = NonNullable<NonNullable<PracticeWriteUp['stage4']>['rows']>[number]
type Stage2 = NonNullable<PracticeWriteUp['stage2']>
type Entry = NonNullable<Stage2[keyof Stage2]>[number]

const blank = (text: string | undefined) => !text?.trim()

/**
 * Both texts: one alone when the other is empty or already holds it, else the two joined (on
 * one line for the single-line fields, which a browser would strip of line breaks).
 */
function bothTexts(
  mine: string | undefined,
  theirs: string | undefined,
  oneLine: boolean,
): string | undefined {
  if (blank(theirs) || mine === theirs || (mine && theirs && mine.includes(theirs))) return mine
  if (blank(mine) || (mine && theirs && theirs.includes(mine))) return theirs
  return `${mine}${oneLine ? ' / ' : '\n\n'}${theirs}`
}

const emptyDrawing = (drawing: Drawing | undefined) => !drawing || drawing.strokes.length === 0

/** Entries of `mine`, then those of `theirs` not among them. */
function union<T>(mine: readonly T[] = [], theirs: readonly T[] = []): T[] {
  const seen = new Set(mine.map(canonical))
  return [...mine, ...theirs.filter((item) => !seen.has(canonical(item)))]
}

/** The object without its undefined fields (the contract's types allow none). */
function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

function mergeIdeograms(mine: Ideogram[] = [], theirs: Ideogram[] = []): Ideogram[] {
  const merged: Ideogram[] = []
  const apart: Ideogram[] = []
  const drawn = (ideogram: Ideogram) => !emptyDrawing(ideogram.drawing)
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
    const a = mine[i]
    const b = theirs[i]
    if (!a || !b) {
      const only = a ?? b
      if (only) merged.push(only)
    } else if (drawn(a) && drawn(b) && canonical(a.drawing) !== canonical(b.drawing)) {
      // Two different drawings are two ideograms: the other device's comes after this one's.
      merged.push(a)
      apart.push(b)
    } else {
      merged.push(
        defined<Ideogram>({
          drawing: drawn(a) ? a.drawing : b.drawing,
          a: bothTexts(a.a, b.a, true),
          b: bothTexts(a.b, b.b, true),
        }),
      )
    }
  }
  return [...merged, ...apart]
}

function mergeRows(mine: Row[] = [], theirs: Row[] = []): Row[] {
  return Array.from({ length: Math.max(mine.length, theirs.length) }, (_, i) => {
    const a = mine[i] ?? {}
    const b = theirs[i] ?? {}
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])] as (keyof Row)[]
    return defined<Row>(
      Object.fromEntries(keys.map((key) => [key, bothTexts(a[key], b[key], true)])),
    )
  })
}

type Break = NonNullable<PracticeWriteUp['breaks']>[number]

function mergeBreaks(mine: Break[] = [], theirs: Break[] = []): Break[] {
  const byMoment = new Map<string, Break>()
  for (const item of [...mine, ...theirs]) {
    const moment = `${item.kind}@${item.at}`
    const known = byMoment.get(moment)
    byMoment.set(
      moment,
      known ? defined<Break>({ ...known, text: bothTexts(known.text, item.text, true) }) : item,
    )
  }
  return [...byMoment.values()].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0))
}

function pointsIn(writeUp: PracticeWriteUp): number {
  const drawings = [
    ...(writeUp.stage1?.ideograms ?? []).map((ideogram) => ideogram.drawing),
    writeUp.stage3?.sketch,
  ]
  return drawings.reduce(
    (sum, drawing) => sum + (drawing?.strokes ?? []).reduce((n, stroke) => n + stroke.length, 0),
    0,
  )
}

/** Whether the server would take `writeUp`: every length and count within the contract. */
export function withinLimits(writeUp: PracticeWriteUp): boolean {
  const texts: [string | undefined, number][] = [
    [writeUp.aestheticImpact, LIMITS.text],
    [writeUp.stage3?.notes, LIMITS.text],
    [writeUp.summary, LIMITS.summary],
    ...(writeUp.stage1?.ideograms ?? []).flatMap((i): [string | undefined, number][] => [
      [i.a, LIMITS.line],
      [i.b, LIMITS.line],
    ]),
    ...(writeUp.stage4?.rows ?? []).flatMap((row) =>
      Object.values(row).map((cell): [string | undefined, number] => [cell, LIMITS.line]),
    ),
    ...(writeUp.breaks ?? []).map((b): [string | undefined, number] => [b.text, LIMITS.line]),
  ]
  const counts: [number, number][] = [
    [writeUp.stage1?.ideograms?.length ?? 0, LIMITS.ideograms],
    [writeUp.stage4?.rows?.length ?? 0, LIMITS.rows],
    [writeUp.breaks?.length ?? 0, LIMITS.breaks],
    [writeUp.stage3?.sketch?.strokes.length ?? 0, LIMITS.strokes],
    ...Object.values(writeUp.stage2 ?? {}).map((column): [number, number] => [
      column?.length ?? 0,
      LIMITS.column,
    ]),
  ]
  return (
    texts.every(([text, max]) => (text?.length ?? 0) <= max) &&
    counts.every(([count, max]) => count <= max) &&
    pointsIn(writeUp) <= LIMITS.points
  )
}

/**
 * Both devices' write-ups in one, nothing of either left out: texts joined, words and breaks
 * of both, two different drawings of an ideogram kept as two ideograms, the sketches' strokes
 * together. `fits` says whether the server would take it (every limit of the contract).
 */
export function mergeWriteUps(
  mine: PracticeWriteUp,
  theirs: PracticeWriteUp,
): { writeUp: PracticeWriteUp; fits: boolean } {
  const columns = [
    ...new Set([...Object.keys(mine.stage2 ?? {}), ...Object.keys(theirs.stage2 ?? {})]),
  ] as (keyof Stage2)[]
  const stage2 = Object.fromEntries(
    columns.map((key) => [key, union<Entry>(mine.stage2?.[key], theirs.stage2?.[key])]),
  ) as Stage2
  const sketchStrokes = union(mine.stage3?.sketch?.strokes, theirs.stage3?.sketch?.strokes)
  const text = (a: string | undefined, b: string | undefined) => bothTexts(a, b, false)
  const ideograms = mergeIdeograms(mine.stage1?.ideograms, theirs.stage1?.ideograms)
  const rows = mergeRows(mine.stage4?.rows, theirs.stage4?.rows)
  const breaks = mergeBreaks(mine.breaks, theirs.breaks)
  const stage3 = defined<NonNullable<PracticeWriteUp['stage3']>>({
    sketch: sketchStrokes.length > 0 ? { strokes: sketchStrokes } : undefined,
    notes: text(mine.stage3?.notes, theirs.stage3?.notes),
  })
  // A part neither has stays out: an empty list would hide the editor's first ideogram pad
  // and matrix row, which it shows for a part not written yet.
  const writeUp = defined<PracticeWriteUp>({
    language: mine.language ?? theirs.language,
    stage1: ideograms.length > 0 ? { ideograms } : undefined,
    stage2: columns.length > 0 ? stage2 : undefined,
    aestheticImpact: text(mine.aestheticImpact, theirs.aestheticImpact),
    stage3: Object.keys(stage3).length > 0 ? stage3 : undefined,
    stage4: rows.length > 0 ? { rows } : undefined,
    breaks: breaks.length > 0 ? breaks : undefined,
    summary: text(mine.summary, theirs.summary),
  })
  return { writeUp, fits: withinLimits(writeUp) }
}

/** One part of a write-up as the conflict view shows it. */
export type Shown =
  | { kind: 'text'; text: string }
  | { kind: 'words'; words: string[] }
  | { kind: 'drawing'; drawing: Drawing | undefined }
  | { kind: 'breaks'; breaks: Break[] }

/** Where a difference is: the catalogue keys (with their values) of its label, joined by ' · '. */
export type Label = [key: string, values?: Record<string, string | number>][]

export interface Difference {
  id: string
  label: Label
  mine: Shown
  theirs: Shown
}

const wordOf = (entry: Entry) => (typeof entry === 'string' ? entry : entry.word)

/** The parts in which the two write-ups differ, in the order of the page. */
export function differences(mine: PracticeWriteUp, theirs: PracticeWriteUp): Difference[] {
  const found: Difference[] = []
  const add = (id: string, label: Label, a: Shown, b: Shown) => {
    if (canonical(a) !== canonical(b)) found.push({ id, label, mine: a, theirs: b })
  }
  const text = (value: string | undefined): Shown => ({ kind: 'text', text: value ?? '' })
  const drawing = (value: Drawing | undefined): Shown => ({
    kind: 'drawing',
    drawing: emptyDrawing(value) ? undefined : value,
  })
  const ideograms = [mine.stage1?.ideograms ?? [], theirs.stage1?.ideograms ?? []] as const
  for (let i = 0; i < Math.max(ideograms[0].length, ideograms[1].length); i++) {
    const [a, b] = [ideograms[0][i], ideograms[1][i]]
    const ideogram: Label[number] = ['writeUp.ideogram', { number: i + 1 }]
    add(`ideogram-${i}`, [ideogram], drawing(a?.drawing), drawing(b?.drawing))
    add(`ideogram-${i}-a`, [ideogram, ['writeUp.aComponent']], text(a?.a), text(b?.a))
    add(`ideogram-${i}-b`, [ideogram, ['writeUp.bComponent']], text(a?.b), text(b?.b))
  }
  const columns = [
    ...new Set([...Object.keys(mine.stage2 ?? {}), ...Object.keys(theirs.stage2 ?? {})]),
  ] as (keyof Stage2)[]
  for (const key of columns)
    add(
      `stage2-${key}`,
      [['writeUp.stage2'], [`writeUp.columns.${key}`]],
      { kind: 'words', words: (mine.stage2?.[key] ?? []).map(wordOf) },
      { kind: 'words', words: (theirs.stage2?.[key] ?? []).map(wordOf) },
    )
  add(
    'aesthetic-impact',
    [['writeUp.aestheticImpact']],
    text(mine.aestheticImpact),
    text(theirs.aestheticImpact),
  )
  add('sketch', [['writeUp.sketch']], drawing(mine.stage3?.sketch), drawing(theirs.stage3?.sketch))
  add(
    'sketch-notes',
    [['writeUp.sketchNotes']],
    text(mine.stage3?.notes),
    text(theirs.stage3?.notes),
  )
  const rows = [mine.stage4?.rows ?? [], theirs.stage4?.rows ?? []] as const
  for (let i = 0; i < Math.max(rows[0].length, rows[1].length); i++) {
    const [a, b] = [rows[0][i] ?? {}, rows[1][i] ?? {}]
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])] as (keyof Row)[]
    for (const key of keys)
      add(
        `row-${i}-${key}`,
        [['writeUp.matrixRow', { row: i + 1 }], [`writeUp.matrix.${key}`]],
        text(a[key]),
        text(b[key]),
      )
  }
  add(
    'breaks',
    [['writeUp.breaks']],
    { kind: 'breaks', breaks: mine.breaks ?? [] },
    { kind: 'breaks', breaks: theirs.breaks ?? [] },
  )
  add('summary', [['writeUp.summary']], text(mine.summary), text(theirs.summary))
  return found
}
