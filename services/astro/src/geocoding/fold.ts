/** Letters that Unicode decomposition leaves whole, spelled as a typist without them would. */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
}

/**
 * A place name folded for lookup: no accents, lower case, and every run of punctuation or
 * spaces one space ('São Paulo' → 'sao paulo', 'Saint-Étienne' → 'saint etienne').
 */
export function foldName(text: string): string {
  // Most names are plain ASCII: no decomposition needed (a third of the index's build time).
  if (/^[a-z0-9]+( [a-z0-9]+)*$/.test(text)) return text
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðþłıħ]/g, (ch) => SPECIAL[ch] ?? ch)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
