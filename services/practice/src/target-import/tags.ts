// A manifest's tags as concept ids: each is a concept id, or a word of the vocabulary in any of
// its seven languages ("Wasser", "froid", "冷たい" → water, cold, cold).
import type { Vocabulary } from '../vocabulary.ts'

export function resolveTags(
  vocabulary: Vocabulary,
  written: readonly string[],
): { ids: string[]; unknown: string[] } {
  const ids = new Set<string>()
  const unknown: string[] = []
  for (const tag of written) {
    const id = vocabulary.has(tag)
      ? tag
      : vocabulary.has(tag.toLowerCase())
        ? tag.toLowerCase()
        : vocabulary.resolve(tag, undefined)
    if (id) ids.add(id)
    else unknown.push(tag)
  }
  return { ids: [...ids], unknown }
}
