/** What the loop needs of a word: its id and its frequency level (1x, 2x or 3x). */
export type Pickable = { id: string; probabilityLevel: number }

/**
 * The next word of the loop (spec §4, Next-word loop): each level counts that many times in the
 * pool, and the word just heard is left out while others are selected. `random` is in [0, 1).
 */
export function pickNextWord<T extends Pickable>(
  selected: readonly T[],
  current: string | null,
  random: () => number = Math.random,
): T | null {
  const others = selected.filter((word) => word.id !== current)
  const candidates = others.length > 0 ? others : selected
  const pool = candidates.flatMap((word) =>
    Array.from({ length: Math.max(1, Math.min(3, Math.round(word.probabilityLevel))) }, () => word),
  )
  if (pool.length === 0) return null
  return pool[Math.min(pool.length - 1, Math.floor(random() * pool.length))] ?? null
}

/** Joined ideogram: `count` different words drawn from `choices`, in the order drawn. */
export function drawSequence<T>(
  choices: readonly T[],
  count: number,
  random: () => number = Math.random,
): T[] {
  const left = [...choices]
  const out: T[] = []
  while (out.length < count && left.length > 0) {
    const [word] = left.splice(Math.min(left.length - 1, Math.floor(random() * left.length)), 1)
    if (word !== undefined) out.push(word)
  }
  return out
}
