import { parse, TYPE } from '@formatjs/icu-messageformat-parser'
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import i18next from 'i18next'
import type { Module, Newable, Resource } from 'i18next'
import ICU from 'i18next-icu'
import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import { formatMessage } from './icu-format.ts'
import type { Values } from './icu-format.ts'
import { icuFormat } from './icu-plugin.ts'
import {
  catalogueTree as tree,
  languages,
  messagesOf as flatten,
  namespaces,
} from './catalogue-files.ts'

// Our formatter against intl-messageformat, which i18next-icu ran before it: every message of
// every catalogue in every language, with values that reach every option and every way of
// formatting a number.

const NUMBERS: unknown[] = [0, 1, 2, 3, 5, 11, 21, 22, 100, 1000, 1.5, 12345.678, '1', '22', 'x']
const PERCENTS: unknown[] = [0.5, 0.123]
const TEXTS: unknown[] = ["Zoë's {name} #2 <b>", 1234.5]

/** Each argument's sample values: numbers for plural and number, each key (and one more) for select. */
function samplesOf(message: string): Map<string, unknown[]> {
  const samples = new Map<string, Set<unknown>>()
  const add = (name: string, values: unknown[]) => {
    const set = samples.get(name) ?? new Set()
    for (const value of values) set.add(value)
    samples.set(name, set)
  }
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.argument) add(e.value, TEXTS)
      if (e.type === TYPE.number)
        add(e.value, e.style === 'percent' ? [...NUMBERS, ...PERCENTS] : NUMBERS)
      if (e.type === TYPE.plural) add(e.value, NUMBERS)
      if (e.type === TYPE.select) add(e.value, [...Object.keys(e.options), 'no-such-key'])
      if (e.type === TYPE.plural || e.type === TYPE.select)
        for (const option of Object.values(e.options)) walk(option.value)
    }
  }
  walk(parse(message, { ignoreTag: true }))
  return new Map([...samples].map(([name, set]) => [name, [...set]]))
}

/**
 * Every combination of the samples; past ten thousand (four numbers or more), each
 * argument through all its samples with the others going through theirs in step.
 */
function valueSets(samples: Map<string, unknown[]>): Values[] {
  const entries = [...samples]
  if (entries.reduce((n, [, list]) => n * list.length, 1) <= 10_000)
    return entries.reduce<Values[]>(
      (sets, [name, list]) => sets.flatMap((set) => list.map((v) => ({ ...set, [name]: v }))),
      [{}],
    )
  return entries.flatMap(([, list]) =>
    list.map((_, i) =>
      Object.fromEntries(entries.map(([name, values]) => [name, values[i % values.length]])),
    ),
  )
}

interface Mismatch {
  where: string
  values: Values
  expected: unknown
  actual: unknown
}

/** Formats each message with each value set (and none) both ways; returns where they differ. */
function compare(
  messages: [string, string][],
  language: string,
  where: string,
  setsOf = (message: string) => valueSets(samplesOf(message)),
) {
  const mismatches: Mismatch[] = []
  let formatted = 0
  for (const [key, message] of messages) {
    let reference: IntlMessageFormat | undefined
    try {
      reference = new IntlMessageFormat(message, language, undefined, { ignoreTag: true })
    } catch {
      reference = undefined
    }
    for (const values of [{}, ...setsOf(message)]) {
      let want: unknown = message
      try {
        if (reference) want = reference.format(values)
      } catch {
        want = message
      }
      const got = icuFormat.parse(message, values, language)
      formatted++
      if (got !== want)
        mismatches.push({ where: `${where} ${key}`, values, expected: want, actual: got })
    }
  }
  return { mismatches, formatted }
}

describe('the ICU formatter', { timeout: 30_000 }, () => {
  it.each(languages)('formats every %s message as intl-messageformat does', (language) => {
    let total = 0
    const mismatches: Mismatch[] = []
    for (const ns of namespaces) {
      const result = compare(flatten(tree(language, ns)), language, `${language}/${ns}.json`)
      total += result.formatted
      mismatches.push(...result.mismatches)
    }
    expect(mismatches.slice(0, 5)).toEqual([])
    expect(total).toBeGreaterThan(5_000)
  })

  // Messages beyond the catalogues' present ones, for the edges of what the formatter reads.
  const edges: [string, string][] = [
    ['quotes', "It's '{name}' and '{'{name}'}' and it''s '' and 'x"],
    ['quoted pound', "{n, plural, one {'#' is #} other {'#'' #} and # '{#}'}}"],
    ['pound in a select in a plural', '{n, plural, other {{k, select, a {# a} other {#}}}}'],
    ['angle brackets', '<1m <b>{name}</b> </i> a > b'],
    ['closing brace at the top', 'a } b {name} }'],
    ['spaces', '{ n , plural , =1{one}  one {# one} other  {# more} } {\tname\n}'],
    ['exact matches', '{n, plural, =0 {none} =1 {just one} =+2 {plus two} other {#}}'],
    [
      'number styles',
      '{n, number} {n, number, integer} {n, number, percent} {n,number,  percent }',
    ],
    ['select', '{k, select, a {A {name}} other {other: {k}}}'],
    ['no other', '{n, plural, one {#}}'],
    ['unclosed', '{n, plural, one {#} other {#}'],
    ['duplicate option', '{k, select, a {1} a {2} other {3}}'],
    ['empty', ''],
  ]

  // Values of every kind for them, as intl-messageformat takes them.
  const edgeValues: Values[] = [
    ...NUMBERS.flatMap((n) => ['a', 'b', 1, undefined].map((k) => ({ n, k, name: 'X' }))),
    { name: null, n: '2', k: 'b' },
    { name: false, n: undefined },
    { name: undefined, n: null, k: null },
    { name: 0, n: 2n, k: 'a' },
    { name: 3.25, n: -1, k: 1.5 },
  ]

  it('formats the edges of ICU as intl-messageformat does', () => {
    for (const language of ['en', 'de', 'fr'])
      expect(compare(edges, language, language, () => edgeValues).mismatches).toEqual([])
  })

  it('says what it cannot read, and the plugin then shows the message as written', () => {
    expect(() => formatMessage('{d, date}', 'en', { d: 1 })).toThrow(SyntaxError)
    expect(() => formatMessage('{n, plural, one {#}}', 'en', { n: 1 })).toThrow(SyntaxError)
    expect(() => formatMessage('Hi {name}', 'en', {})).toThrow(/name/)
    expect(icuFormat.parse('Hi {name}', {}, 'en')).toBe('Hi {name}')
    expect(formatMessage('{n, plural, one {# day} other {# days}}', 'de', { n: 1000 })).toBe(
      '1.000 days',
    )
  })
})

/** t of an i18next set up as i18n.ts sets it up, with every catalogue and the given plugin. */
async function i18nextWith(plugin: Module | Newable<Module>) {
  const resources: Resource = Object.fromEntries(
    languages.map((language) => [
      language,
      Object.fromEntries(namespaces.map((ns) => [ns, tree(language, ns)])),
    ]),
  )
  const instance = i18next.createInstance()
  await instance.use(plugin).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: languages,
    ns: namespaces,
    defaultNS: 'common',
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  // The keys come from the files here, not from the typed English ones.
  return instance.t.bind(instance) as unknown as (key: string, options: Values) => unknown
}

// Some ten thousand t calls: seconds on a busy machine.
describe('i18next with the ICU plugin', { timeout: 30_000 }, () => {
  it('translates as it did with i18next-icu', async () => {
    const ours = await i18nextWith(icuFormat)
    const theirs = await i18nextWith(ICU as unknown as Newable<Module>)
    let compared = 0
    let plain = 0
    for (const language of languages) {
      for (const ns of namespaces) {
        for (const [key, message] of flatten(tree(language, ns))) {
          const sets = valueSets(samplesOf(message))
          // Every message with arguments, with no values and twenty of its value sets; every
          // tenth message without.
          if (sets.length === 1 && plain++ % 10 !== 0) continue
          for (const values of [
            {},
            ...sets.filter((_, i) => i % Math.ceil(sets.length / 20) === 0),
          ]) {
            const options = { lng: language, ...values }
            expect(ours(`${ns}:${key}`, options), `${language}/${ns} ${key}`).toBe(
              theirs(`${ns}:${key}`, options),
            )
            compared++
          }
        }
      }
    }
    expect(ours('common:no.such.key', { count: 2 })).toBe(
      theirs('common:no.such.key', { count: 2 }),
    )
    expect(compared).toBeGreaterThan(5_000)
  })
})
