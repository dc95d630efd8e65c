/**
 * ICU MessageFormat, only as much of it as the catalogues (src/locales) use: `{name}`,
 * `{n, number}`, `{n, number, percent}`, `{n, plural, =0 {…} one {# …} other {…}}` and
 * `{key, select, … other {…}}`, nested, with ICU's apostrophe quoting. It stands in for
 * intl-messageformat and its parser, 15 KB gzip of the first visit's JavaScript, and gives the
 * same text they give as i18next-icu used them (tags off, so `<` is text). Dates, times, number
 * skeletons, `offset:` and `selectordinal` are syntax errors here; icu-format.test.ts formats
 * every message of every catalogue both ways, so a message that needs more fails the tests.
 */

/** A `#`: the plural's number, formatted. */
const POUND = { type: '#' } as const

type Node =
  | string
  | typeof POUND
  | { type: 'text'; name: string }
  | { type: 'number'; name: string; style: string }
  | { type: 'plural' | 'select'; name: string; options: Map<string, Node[]> }

export type Values = Record<string, unknown>

// intl-messageformat's named number styles (`integer` and `currency` are not used but cost
// nothing; `currency` without a currency fails as it does there).
const NUMBER_STYLES: Record<string, Intl.NumberFormatOptions> = {
  integer: { maximumFractionDigits: 0 },
  currency: { style: 'currency' },
  percent: { style: 'percent' },
}

// An argument's name or keyword ends where ICU's Pattern_Syntax or White_Space starts, as in
// the formatjs parser. One character at a time: no backtracking.
const ENDS_NAME = /[\p{Pattern_Syntax}\p{White_Space}]/u

/** ICU's Pattern_White_Space, skipped around names, commas and options. */
function isSpace(c: string): boolean {
  const code = c.charCodeAt(0)
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0x85 ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029
  )
}

/** A hand-written scanner over one message; each call reads one piece and moves on. */
class Parser {
  private readonly text: string
  private at = 0

  constructor(text: string) {
    this.text = text
  }

  parse(): Node[] {
    return this.message(false, false)
  }

  /** Text and arguments to the end, or in an option to its closing `}` (left to the caller). */
  private message(nested: boolean, inPlural: boolean): Node[] {
    const nodes: Node[] = []
    let literal = ''
    const flush = () => {
      if (literal) nodes.push(literal)
      literal = ''
    }
    while (this.at < this.text.length) {
      const c = this.char()
      if (c === '}' && nested) break
      if (c === '{') {
        flush()
        nodes.push(this.argument())
      } else if (c === '#' && inPlural) {
        flush()
        nodes.push(POUND)
        this.at++
      } else if (c === "'") {
        literal += this.apostrophe(inPlural)
      } else {
        literal += c
        this.at++
      }
    }
    flush()
    return nodes
  }

  /**
   * ICU quoting: `''` is one apostrophe; an apostrophe before a syntax character (`{`, `}`,
   * `<`, `>`, and `#` inside a plural) quotes text up to the next lone apostrophe; any other
   * apostrophe is itself ("today's").
   */
  private apostrophe(inPlural: boolean): string {
    const next = this.char(1)
    if (next === "'") {
      this.at += 2
      return "'"
    }
    const quotes = next === '#' ? inPlural : next !== '' && '{}<>'.includes(next)
    if (!quotes) {
      this.at++
      return "'"
    }
    let quoted = next
    this.at += 2
    while (this.at < this.text.length) {
      const c = this.char()
      this.at++
      if (c !== "'") quoted += c
      else if (this.char() === "'") {
        quoted += "'"
        this.at++
      } else break
    }
    return quoted
  }

  /** `{name}`, `{name, number[, style]}`, `{name, plural|select, options}`. */
  private argument(): Node {
    this.at++
    this.space()
    const name = this.name()
    if (!name) throw this.error('an argument name')
    this.space()
    if (this.eat('}')) return { type: 'text', name }
    this.expect(',')
    this.space()
    const type = this.name()
    if (type === 'number') {
      this.space()
      const style = this.eat(',') ? this.numberStyle() : ''
      this.expect('}')
      return { type: 'number', name, style }
    }
    if (type !== 'plural' && type !== 'select') throw this.error('number, plural or select')
    this.space()
    this.expect(',')
    this.space()
    const options = new Map<string, Node[]>()
    for (let key = this.selector(type); key; key = this.selector(type)) {
      if (options.has(key)) throw this.error(`one ${key} option only`)
      this.space()
      this.expect('{')
      options.set(key, this.message(true, type === 'plural'))
      this.expect('}')
      this.space()
    }
    if (!options.has('other')) throw this.error('an other option')
    this.expect('}')
    return { type, name, options }
  }

  /** A named style (`percent`); skeletons (`::…`) and quoted styles are not supported. */
  private numberStyle(): string {
    this.space()
    const start = this.at
    while (this.at < this.text.length && !"{}'".includes(this.char())) this.at++
    const style = this.text.slice(start, this.at).trimEnd()
    if (!style || style.startsWith('::') || this.char() !== '}') throw this.error('a number style')
    return style
  }

  /** An option's key: a name, or in a plural `=` and a whole number (kept as written). */
  private selector(type: 'plural' | 'select'): string {
    const name = this.name()
    if (name || type === 'select' || this.char() !== '=') return name
    const start = this.at++
    if (this.char() === '+' || this.char() === '-') this.at++
    const digits = this.at
    while (this.char() >= '0' && this.char() <= '9') this.at++
    const key = this.text.slice(start, this.at)
    if (this.at === digits || !Number.isSafeInteger(Number(key.slice(1))))
      throw this.error('a whole number after =')
    return key
  }

  private name(): string {
    const start = this.at
    while (this.at < this.text.length && !ENDS_NAME.test(this.char())) this.at++
    return this.text.slice(start, this.at)
  }

  private space(): void {
    while (this.at < this.text.length && isSpace(this.char())) this.at++
  }

  /** The character `ahead` places on ('' past the end). */
  private char(ahead = 0): string {
    return this.text[this.at + ahead] ?? ''
  }

  private eat(c: string): boolean {
    if (this.char() !== c) return false
    this.at++
    return true
  }

  private expect(c: string): void {
    if (!this.eat(c)) throw this.error(`"${c}"`)
  }

  private error(expected: string): SyntaxError {
    return new SyntaxError(`Expected ${expected} at ${this.at} in ICU message "${this.text}"`)
  }
}

// Parsed once per message; Intl's formatters made once per locale (and style).
const parsed = new Map<string, Node[]>()
const numberFormats = new Map<string, Intl.NumberFormat>()
const pluralRules = new Map<string | undefined, Intl.PluralRules>()

function numberFormat(locale: string | undefined, style: string): Intl.NumberFormat {
  const key = `${locale} ${style}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      Object.hasOwn(NUMBER_STYLES, style) ? NUMBER_STYLES[style] : undefined,
    )
    numberFormats.set(key, format)
  }
  return format
}

function pluralCategory(locale: string | undefined, n: number): string {
  let rules = pluralRules.get(locale)
  if (!rules) {
    rules = new Intl.PluralRules(locale)
    pluralRules.set(locale, rules)
  }
  return rules.select(n)
}

/**
 * The message with its arguments filled in for `locale`. Throws on a message it cannot parse
 * and on an argument `values` lacks, as intl-messageformat does.
 */
export function formatMessage(
  message: string,
  locale: string | undefined,
  values: Values | undefined,
): string {
  let nodes = parsed.get(message)
  if (!nodes) {
    nodes = new Parser(message).parse()
    parsed.set(message, nodes)
  }
  return format(nodes, locale, values, undefined)
}

/**
 * Values are read as intl-messageformat reads them: a text argument's null, undefined or false
 * is empty; a number argument goes to Intl.NumberFormat as it is (a numeric string formats, any
 * other string is "NaN"); a select takes the option named by the value as text, else `other`; a
 * plural tries `=value` first, then the plural category of the value as a number, and `#` in
 * it is that number formatted. Unlike there, an object or `true` as a text argument becomes
 * text: intl-messageformat hands those back as separate parts, for rich text the app has none of.
 */
function format(
  nodes: Node[],
  locale: string | undefined,
  values: Values | undefined,
  count: number | undefined,
): string {
  let out = ''
  for (const node of nodes) {
    if (typeof node === 'string') {
      out += node
      continue
    }
    if (node.type === '#') {
      if (count !== undefined) out += numberFormat(locale, '').format(count)
      continue
    }
    if (!values || !(node.name in values))
      throw new Error(`The ICU message has no value for {${node.name}}`)
    const value = values[node.name]
    if (node.type === 'text') out += value == null || value === false ? '' : String(value)
    else if (node.type === 'number') out += numberFormat(locale, node.style).format(value as number)
    else if (node.type === 'select') {
      const option = node.options.get(String(value)) ?? (node.options.get('other') as Node[])
      out += format(option, locale, values, undefined)
    } else {
      const n = Number(value)
      const option =
        node.options.get(`=${String(value)}`) ??
        node.options.get(pluralCategory(locale, n)) ??
        (node.options.get('other') as Node[])
      out += format(option, locale, values, n)
    }
  }
  return out
}
