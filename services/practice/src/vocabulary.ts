// The descriptor vocabulary as scoring needs it: concept ids with their words in seven languages,
// so a German write-up scores against English-tagged targets. The files are read once, read-only;
// the descriptors service owns them (the ai service reads them the same way).
import { stemmer as stemFrench } from '@orama/stemmers/french'
import { stemmer as stemGerman } from '@orama/stemmers/german'
import { stemmer as stemItalian } from '@orama/stemmers/italian'
import { stemmer as stemSpanish } from '@orama/stemmers/spanish'
import { stopwords as stopEnglish } from '@orama/stopwords/english'
import { stopwords as stopFrench } from '@orama/stopwords/french'
import { stopwords as stopGerman } from '@orama/stopwords/german'
import { stopwords as stopItalian } from '@orama/stopwords/italian'
import { stopwords as stopSpanish } from '@orama/stopwords/spanish'
import { stem as stemEnglish } from 'porter2'
import { readVocabularyCsv } from '@crv/kit'

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

/**
 * Languages written with spaces between words, with their Snowball stemmers (Porter2 for English;
 * Orama's English one is the older Porter algorithm) and stop words.
 */
const SPACED = {
  en: { stem: stemEnglish, stopWords: stopEnglish },
  de: { stem: stemGerman, stopWords: stopGerman },
  fr: { stem: stemFrench, stopWords: stopFrench },
  es: { stem: stemSpanish, stopWords: stopSpanish },
  it: { stem: stemItalian, stopWords: stopItalian },
} as const
type SpacedLanguage = keyof typeof SPACED
type UnspacedLanguage = Exclude<Language, SpacedLanguage>
const isSpaced = (l: Language | undefined): l is SpacedLanguage => l !== undefined && l in SPACED
const SPACED_LANGUAGES = LANGUAGES.filter(isSpaced)

export interface Concept {
  id: string
  category: string
  words: Partial<Record<Language, string>>
  /** adjective or noun (README of the data files). */
  pos?: string
  /** The Japanese word's reading in kana. */
  kana?: string
}

/** A word folded for lookup: no accents, lower case, single spaces. */
export function foldWord(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

// The scan names its scripts by code ranges rather than Unicode properties: the regular expression
// is then several times quicker on accented text.
const LATIN = '0-9a-z\\u00c0-\\u024f\\u1e00-\\u1eff\\uff10-\\uff19\\uff41-\\uff5a'
const UNSPACED =
  '\\u3005-\\u3007\\u3040-\\u30ff\\u31f0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff66-\\uff9f'
/** A word in Latin script (lower case), as the scan below finds it. */
const LATIN_WORD = new RegExp(`[${LATIN}]+`, 'g')
/**
 * Runs of Japanese or Chinese script (with the rarer ideographs, in surrogate pairs), words in
 * Latin script (hyphens and apostrophes split them), and any other sign but a space, which ends a
 * phrase: a phrase never spans a comma or a line break.
 */
const SCAN = new RegExp(
  `(?:[${UNSPACED}]|[\\ud840-\\ud87f][\\udc00-\\udfff])+|[${LATIN}]+|[^\\s'’-]`,
  'g',
)
const LATIN_START = new RegExp(`^[${LATIN}]`)
const UNSPACED_START = new RegExp(`^(?:[${UNSPACED}]|[\\ud840-\\ud87f])`)

/** The vocabulary spells English the American way (gray, color); British spellings match too. */
const BRITISH: [RegExp, string][] = [
  [/gray/g, 'grey'],
  [/(col|od|vap|harb|sav|flav|hum|rum|arm)or/g, '$1our'],
  [/mold/g, 'mould'],
  [/sulfur/g, 'sulphur'],
  [/aluminum/g, 'aluminium'],
  [/jewelry/g, 'jewellery'],
  [/(defen|offen)se/g, '$1ce'],
  [/cozy/g, 'cosy'],
  [/(och|somb|cent|met|lit|fib|theat|lust|spect|calib|meag)er\b/g, '$1re'],
  [/([aeiou])l(ing|ed)\b/g, '$1ll$2'],
  [/iz(e|ed|es|ing|ation)\b/g, 'is$1'],
]
const british = (word: string) => BRITISH.reduce((w, [from, to]) => w.replace(from, to), word)

/** What an English comparative or superlative (rougher, whitest, bigger, heavier) may come from. */
function comparativeBases(word: string): string[] {
  const base = /^(.{3,}?)(?:er|est)$/.exec(word)?.[1]
  if (!base) return []
  const bases = [base, `${base}e`]
  if (/([^aeiou])\1$/.test(base)) bases.push(base.slice(0, -1))
  if (base.endsWith('i')) bases.push(`${base.slice(0, -1)}y`)
  return bases
}

/**
 * The beginnings of a language's stems, letter by letter. A Snowball stem keeps the letters of its
 * word but for its last one, which it may rewrite (happily → happili, rugueuse → rugueux), and a
 * stem of three letters or fewer rewrites only a final y (into i) or restores an e: so a word can
 * have a stem of the vocabulary only if it begins with one of these beginnings. That holds for
 * the 21,502 words of the vocabulary and the example sentences under every stemmer but for three
 * (lying → lie, fabrication → fabriqu, récemment → recent), and spares stemming most words in the
 * languages other than the write-up's.
 */
class StemBeginnings {
  private readonly root: LetterNode = { next: new Map(), end: false }

  add(stem: string) {
    let node = this.root
    const length = stem.length >= 4 || /[ie]$/.test(stem) ? stem.length - 1 : stem.length
    for (let i = 0; i < Math.max(1, length); i++) {
      const letter = stem.charCodeAt(i)
      let next = node.next.get(letter)
      if (!next) node.next.set(letter, (next = { next: new Map(), end: false }))
      node = next
    }
    node.end = true
  }

  /** Whether `folded` may have one of the stems. */
  begins(folded: string): boolean {
    let node: LetterNode | undefined = this.root
    for (let i = 0; i < folded.length; i++) {
      node = node.next.get(folded.charCodeAt(i))
      if (!node) return false
      if (node.end) return true
    }
    return false
  }
}

interface LetterNode {
  next: Map<number, LetterNode>
  end: boolean
}

/** Japanese i-adjective endings after the stem: 青く, 青かった, 青ければ, 青さ for 青い. */
const I_ADJECTIVE_ENDINGS = ['く', 'かっ', 'けれ', 'さ']

/** foldWord, quicker for the words in plain ASCII letters that most words are. */
const fold = (word: string) => (/^[a-z0-9]+$/.test(word) ? word : foldWord(word))

/** A word of the text, analysed once however often it is written; undefined: not yet known. */
interface Token {
  text: string
  folded: string
  /** Per language, the word's stem, or null where no stem of the vocabulary can be it. */
  stems: Record<SpacedLanguage, string | null | undefined>
  /** The concepts the word names alone (null: none). */
  alone: string[] | null | undefined
  /** The languages with a vocabulary phrase starting with this word (null: none). */
  opens: SpacedLanguage[] | null | undefined
  /** The words that, following this one, may go on into a phrase (true) or may not (false). */
  followers: Map<Token, boolean> | undefined
}

/** How many analysed words the vocabulary keeps before it starts afresh. */
const MAX_ANALYSED = 50_000

/** Japanese and Chinese words, UTF-16 code unit by code unit. */
interface TrieNode {
  next: Map<number, TrieNode>
  ja: string[] | undefined
  zh: string[] | undefined
}
const trieNode = (): TrieNode => ({ next: new Map(), ja: undefined, zh: undefined })

/** What the vocabulary knows of a language written with spaces. */
interface SpacedIndex {
  /** The written forms (and British spellings), folded, words joined by a space → concept ids. */
  forms: Map<string, string[]>
  /** The stems of the written forms, joined by a space → concept ids. */
  stemmed: Map<string, string[]>
  /** The stems of the beginnings of phrases (all but their last word), joined by a space. */
  phraseStarts: Set<string>
  /** The beginnings of all stems, and of the stems phrases start with. */
  stemBeginnings: StemBeginnings
  phraseBeginnings: StemBeginnings
}
const spacedIndex = (): SpacedIndex => ({
  forms: new Map(),
  stemmed: new Map(),
  phraseStarts: new Set(),
  stemBeginnings: new StemBeginnings(),
  phraseBeginnings: new StemBeginnings(),
})

const push = <K>(map: Map<K, string[]>, key: K, id: string) => {
  const ids = map.get(key)
  if (!ids) map.set(key, [id])
  else if (!ids.includes(id)) ids.push(id)
}

/** Reads the concepts out of the texts of one write-up. */
export interface Reader {
  /** The concepts the text names, in the order written; `prefer` picks where a word names several. */
  find(text: string, prefer?: readonly string[]): string[]
}

export class Vocabulary {
  private readonly concepts = new Map<string, Concept>()
  /** Folded word → concept ids, per language. */
  private readonly byWord = new Map<string, string[]>()
  private readonly spaced = {
    en: spacedIndex(),
    de: spacedIndex(),
    fr: spacedIndex(),
    es: spacedIndex(),
    it: spacedIndex(),
  } satisfies Record<SpacedLanguage, SpacedIndex>
  /** English adjectives, the only concepts a comparative names. */
  private readonly adjectives = new Set<string>()
  private readonly stopWords = new Set<string>()
  /** Japanese and Chinese words, character by character. */
  private readonly trie = trieNode()
  /** Japanese words written in kana, matched when they stand alone. */
  private readonly kana = new Map<string, string[]>()
  /**
   * Words already analysed, per language of the write-up: what a word names depends only on the
   * vocabulary and that language, and the same words recur from write-up to write-up.
   */
  private readonly analysed = new Map<Language | undefined, Map<string, Token>>()
  private analysedCount = 0

  constructor(concepts: Concept[]) {
    for (const concept of concepts) {
      this.concepts.set(concept.id, concept)
      for (const [language, word] of Object.entries(concept.words) as [Language, string][]) {
        push(this.byWord, `${language}:${foldWord(word)}`, concept.id)
        if (isSpaced(language)) this.indexSpaced(language, word, concept)
        else this.indexUnspaced(language, word, concept)
      }
      if (concept.kana) push(this.kana, concept.kana.normalize('NFKC'), concept.id)
    }
    // Where words of several concepts share a stem ("tower", "towering"), the base form comes first.
    for (const language of SPACED_LANGUAGES) {
      const length = (id: string) => this.concepts.get(id)?.words[language]?.length ?? 0
      for (const ids of this.spaced[language].stemmed.values()) {
        ids.sort((a, b) => length(a) - length(b))
      }
    }
    for (const { stopWords } of Object.values(SPACED)) {
      for (const word of stopWords) this.stopWords.add(foldWord(word))
    }
  }

  private indexSpaced(language: SpacedLanguage, word: string, concept: Concept) {
    const variants = language === 'en' ? new Set([word, british(word)]) : [word]
    for (const variant of variants) {
      const tokens = variant.normalize('NFC').toLowerCase().match(LATIN_WORD) ?? []
      if (tokens.length === 0) continue
      const stems = tokens.map((t) => foldWord(SPACED[language].stem(t)))
      const index = this.spaced[language]
      push(index.forms, tokens.map(foldWord).join(' '), concept.id)
      push(index.stemmed, stems.join(' '), concept.id)
      for (const stem of stems) index.stemBeginnings.add(stem)
      if (tokens.length > 1) {
        for (let n = 1; n < stems.length; n++) index.phraseStarts.add(stems.slice(0, n).join(' '))
        index.phraseBeginnings.add(stems[0] ?? '')
      }
    }
    if (language === 'en' && concept.pos === 'adjective') this.adjectives.add(concept.id)
  }

  private indexUnspaced(language: UnspacedLanguage, word: string, concept: Concept) {
    const written = word.normalize('NFKC')
    const forms = [written]
    if (language === 'ja' && concept.pos === 'adjective' && /[^てで]い$/.test(written)) {
      forms.push(...I_ADJECTIVE_ENDINGS.map((ending) => written.slice(0, -1) + ending))
    }
    for (const form of forms) {
      let node = this.trie
      for (let i = 0; i < form.length; i++) {
        const unit = form.charCodeAt(i)
        let next = node.next.get(unit)
        if (!next) node.next.set(unit, (next = trieNode()))
        node = next
      }
      const ids = (node[language] ??= [])
      if (!ids.includes(concept.id)) ids.push(concept.id)
    }
  }

  get size(): number {
    return this.concepts.size
  }

  has(id: string): boolean {
    return this.concepts.has(id)
  }

  get(id: string): Concept | undefined {
    return this.concepts.get(id)
  }

  /**
   * The concept a written word names: in the write-up's language first, then in any language;
   * where a word names several concepts, the one in `preferCategory` if there is one.
   */
  resolve(word: string, language: Language | undefined, preferCategory?: string): string | null {
    const folded = foldWord(word)
    if (!folded) return null
    const order = language ? [language, ...LANGUAGES.filter((l) => l !== language)] : LANGUAGES
    for (const lang of order) {
      const ids = this.byWord.get(`${lang}:${folded}`)
      if (!ids || ids.length === 0) continue
      const preferred = preferCategory
        ? ids.find((id) => this.concepts.get(id)?.category === preferCategory)
        : undefined
      return preferred ?? ids[0] ?? null
    }
    return null
  }

  /**
   * A reader of free text for a write-up in `language`: words in that language first, then in
   * any; phrases before single words, longest first; inflections through the Snowball stemmers,
   * Japanese and Chinese words found inside the text; stop words never match.
   */
  reader(language: Language | undefined): Reader {
    // The write-up's own language first (its written forms, then its stems), then all others.
    const groups: SpacedLanguage[][] = isSpaced(language)
      ? [[language], SPACED_LANGUAGES.filter((l) => l !== language)]
      : [SPACED_LANGUAGES]
    // Japanese and Chinese share characters: the write-up's own first.
    const [firstUnspaced, secondUnspaced] =
      language === 'zh' ? (['zh', 'ja'] as const) : (['ja', 'zh'] as const)
    // A stop word of any language still counts where it is a word of the write-up's own language
    // ("sea" is a Spanish stop word; "few" an English one).
    const own = groups[0] ?? []
    const order = groups.flat()
    let analysed = this.analysed.get(language)
    if (!analysed) this.analysed.set(language, (analysed = new Map()))
    const token = (text: string): Token => {
      let t = analysed.get(text)
      if (t) return t
      if (this.analysedCount >= MAX_ANALYSED) {
        for (const words of this.analysed.values()) words.clear()
        this.analysedCount = 0
      }
      t = {
        text,
        folded: fold(text),
        stems: { en: undefined, de: undefined, fr: undefined, es: undefined, it: undefined },
        alone: undefined,
        opens: undefined,
        followers: undefined,
      }
      analysed.set(text, t)
      this.analysedCount += 1
      return t
    }
    // Words are stemmed in the write-up's own language, and in another only where they may have
    // one of its stems (see StemBeginnings).
    const stem = (t: Token, lang: SpacedLanguage): string | null => {
      const known = t.stems[lang]
      if (known !== undefined) return known
      const may = lang === language || this.spaced[lang].stemBeginnings.begins(t.folded)
      return (t.stems[lang] = may ? fold(SPACED[lang].stem(t.text)) : null)
    }
    const pick = (ids: string[] | null | undefined, prefer: readonly string[] | undefined) => {
      if (!ids || ids.length <= 1 || !prefer?.length) return ids?.[0]
      return ids.find((id) => prefer.includes(this.concepts.get(id)?.category ?? '')) ?? ids[0]
    }

    /** The concepts a word names alone: written forms before stems, in the languages' order. */
    const alone = (t: Token): string[] | null => {
      if (t.alone !== undefined) return t.alone
      t.alone = null
      if (t.folded.length < 2) return null
      if (this.stopWords.has(t.folded) && !own.some((l) => this.spaced[l].forms.has(t.folded))) {
        return null
      }
      for (const group of groups) {
        for (const lang of group) {
          const ids = this.spaced[lang].forms.get(t.folded)
          if (ids) return (t.alone = ids)
        }
        for (const lang of group) {
          const s = stem(t, lang)
          const ids = s === null ? undefined : this.spaced[lang].stemmed.get(s)
          if (ids) return (t.alone = ids)
          if (lang !== 'en') continue
          for (const base of comparativeBases(t.folded)) {
            const adjectives = this.spaced.en.forms
              .get(base)
              ?.filter((id) => this.adjectives.has(id))
            if (adjectives?.length) return (t.alone = adjectives)
          }
        }
      }
      return null
    }

    const opens = (t: Token): SpacedLanguage[] | null => {
      if (t.opens !== undefined) return t.opens
      const langs = order.filter(
        (lang) =>
          this.spaced[lang].phraseBeginnings.begins(t.folded) &&
          this.spaced[lang].phraseStarts.has(stem(t, lang) ?? ''),
      )
      return (t.opens = langs.length > 0 ? langs : null)
    }

    /** The longest phrase of the vocabulary starting at word `i`, with its length in words. */
    const phraseAt = (words: Token[], i: number): [string[], number] | undefined => {
      const first = words[i] as Token
      const second = words[i + 1]
      const langs = first.opens === undefined ? opens(first) : first.opens
      if (langs === null || second === undefined) return undefined
      // Most words that may open a phrase ("a", "in") are not followed by one: remember which.
      const followers = (first.followers ??= new Map())
      if (followers.get(second) === false) return undefined
      let best: [string[], number] | undefined
      let goesOn = false
      for (const lang of langs) {
        const { stemmed, phraseStarts } = this.spaced[lang]
        let key = stem(first, lang) ?? ''
        for (let k = i + 1; k < words.length; k++) {
          const s = stem(words[k] as Token, lang)
          if (s === null) break
          key += ` ${s}`
          const ids = stemmed.get(key)
          // Only a longer phrase displaces one found in a language tried before.
          if (ids && k - i + 1 > (best?.[1] ?? 1)) best = [ids, k - i + 1]
          const started = phraseStarts.has(key)
          if (k === i + 1) goesOn ||= started || ids !== undefined
          if (!started) break
        }
      }
      followers.set(second, goesOn)
      return best
    }

    const findSpaced = (words: Token[], prefer: readonly string[] | undefined, found: string[]) => {
      for (let i = 0; i < words.length;) {
        const word = words[i] as Token
        const phrase = word.opens === null ? undefined : phraseAt(words, i)
        const ids = phrase?.[0] ?? (word.alone === undefined ? alone(word) : word.alone)
        const id = ids?.length === 1 ? ids[0] : pick(ids, prefer)
        if (id) found.push(id)
        i += phrase?.[1] ?? 1
      }
      words.length = 0
    }

    const findUnspaced = (run: string, prefer: readonly string[] | undefined, found: string[]) => {
      const spelt = pick(this.kana.get(run), prefer)
      if (spelt) {
        found.push(spelt)
        return
      }
      for (let i = 0; i < run.length;) {
        let node: TrieNode | undefined = this.trie
        let ids: string[] | undefined
        let length = 1
        for (let j = i; j < run.length; j++) {
          node = node.next.get(run.charCodeAt(j))
          if (!node) break
          const here = node[firstUnspaced] ?? node[secondUnspaced]
          if (!here) continue
          ids = here
          length = j - i + 1
        }
        const id = ids?.length === 1 ? ids[0] : pick(ids, prefer)
        if (id) found.push(id)
        i += length
      }
    }

    return {
      find: (text, prefer) => {
        const found: string[] = []
        const words: Token[] = []
        for (const part of text.normalize('NFC').toLowerCase().match(SCAN) ?? []) {
          if (LATIN_START.test(part)) {
            words.push(token(part))
            continue
          }
          findSpaced(words, prefer, found)
          if (UNSPACED_START.test(part)) findUnspaced(part.normalize('NFKC'), prefer, found)
        }
        findSpaced(words, prefer, found)
        return found
      },
    }
  }

  /** Concepts whose word in any language starts with (first) or contains `query`. */
  search(query: string, options: { category?: string; limit: number }): Concept[] {
    const q = foldWord(query)
    const starts: Concept[] = []
    const contains: Concept[] = []
    for (const concept of this.concepts.values()) {
      if (options.category && concept.category !== options.category) continue
      if (!q) {
        starts.push(concept)
        continue
      }
      const folded = Object.values(concept.words).map((w) => foldWord(w))
      if (folded.some((w) => w.startsWith(q))) starts.push(concept)
      else if (folded.some((w) => w.includes(q))) contains.push(concept)
    }
    return [...starts, ...contains].slice(0, options.limit)
  }
}

/** Reads `vocabulary.<lang>.csv` from the directory (the English file names every concept). */
export function loadVocabulary(dir: string): Vocabulary {
  const concepts = new Map<string, Concept>()
  for (const language of LANGUAGES) {
    for (const row of readVocabularyCsv(dir, `vocabulary.${language}.csv`) ?? []) {
      const id = row.id
      const word = row[language]
      if (!id || !word) continue
      const concept = concepts.get(id) ?? { id, category: row.category ?? '', words: {} }
      concept.words[language] = word
      if (row.pos) concept.pos = row.pos
      if (row.ja_kana) concept.kana = row.ja_kana
      concepts.set(id, concept)
    }
  }
  return new Vocabulary([...concepts.values()])
}
