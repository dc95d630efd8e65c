import { IntlMessageFormat } from 'intl-messageformat'
import { parse, TYPE } from '@formatjs/icu-messageformat-parser'
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser'
import { describe, expect, it } from 'vitest'
import { catalogueTree, languages, messagesOf, namespaces } from './catalogue-files.ts'
import { detectLanguage } from './languages.ts'

const catalogue = (language: string, ns: string) => new Map(messagesOf(catalogueTree(language, ns)))

/** The arguments a message takes ({name}, {count, plural, …}, <tag>…</tag>), sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>()
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if ('value' in e && typeof e.value === 'string' && e.type !== TYPE.literal) names.add(e.value)
      if (e.type === TYPE.plural || e.type === TYPE.select)
        for (const option of Object.values(e.options)) walk(option.value)
      if (e.type === TYPE.tag) walk(e.children)
    }
  }
  walk(parse(message))
  return [...names].sort()
}

/** Sample values for every argument, so each message is formatted once. */
function sampleValues(message: string): Record<string, unknown> {
  return Object.fromEntries(argumentsOf(message).map((name) => [name, 2]))
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/
// Words that stay as they are in every language: names, acronyms, units.
const KEPT =
  /\b(CRV|CSV|JSON|FSRS|SMS|ID|URL|UTC|LST|GMST|PNG|JPEG|WebP|GIF|Google|Apple|OpenID|Telegram|Facebook|GitHub|Lighthouse|ms|Hz|px|km|MB|KB|CRV Training)\b/g

describe('message catalogues', () => {
  it('every language has exactly the keys English has, in every namespace', () => {
    for (const ns of namespaces) {
      const english = [...catalogue('en', ns).keys()].sort()
      for (const language of languages) {
        expect([...catalogue(language, ns).keys()].sort(), `${language}/${ns}.json`).toEqual(
          english,
        )
      }
    }
  })

  it('every message is valid ICU, takes the arguments English takes, and formats', () => {
    for (const ns of namespaces) {
      const english = catalogue('en', ns)
      for (const language of languages) {
        for (const [key, message] of catalogue(language, ns)) {
          const where = `${language}/${ns}.json ${key}`
          expect(() => parse(message), where).not.toThrow()
          expect(argumentsOf(message), where).toEqual(argumentsOf(english.get(key) ?? ''))
          const formatted = new IntlMessageFormat(message, language).format(sampleValues(message))
          expect(formatted, where).toBeTruthy()
        }
      }
    }
  })

  it('leaves no English sentence untranslated, and writes Japanese and Chinese in their scripts', () => {
    const left: string[] = []
    for (const ns of namespaces) {
      const english = catalogue('en', ns)
      for (const language of languages.filter((l) => l !== 'en')) {
        for (const [key, message] of catalogue(language, ns)) {
          const source = english.get(key) ?? ''
          // Plain arguments ({language}, {word}) are names, not English to translate.
          const words =
            source
              .replace(KEPT, '')
              .replace(/\{\s*\w+\s*\}/g, '')
              .match(/[A-Za-z]{2,}/g) ?? []
          if (language === 'ja' || language === 'zh') {
            const latin = message.replace(KEPT, '').replace(/\{[^}]*\}/g, '')
            if (words.length > 0 && /[A-Za-z]{3,}/.test(latin) && !CJK.test(message))
              left.push(`${language}/${ns} ${key}: ${message}`)
          } else if (words.length > 1 && message === source) {
            left.push(`${language}/${ns} ${key}: ${message}`)
          }
        }
      }
    }
    expect(left).toEqual([])
  })

  it('plural messages use ICU plurals, not a hand-made "(s)"', () => {
    for (const ns of namespaces)
      for (const language of languages)
        for (const [key, message] of catalogue(language, ns))
          expect(message, `${language}/${ns} ${key}`).not.toMatch(/\w\(s\)|\(e\)n\b/)
  })
})

describe('the interface language', () => {
  it('is the stored choice first, then the first browser language we have, else English', () => {
    expect(detectLanguage('fr', ['de-DE'])).toEqual({ language: 'fr', chosen: true })
    expect(detectLanguage(null, ['pt-BR', 'de-AT', 'en'])).toEqual({
      language: 'de',
      chosen: false,
    })
    expect(detectLanguage('xx', ['zh-Hans-CN'])).toEqual({ language: 'zh', chosen: false })
    expect(detectLanguage(null, ['pt'])).toEqual({ language: 'en', chosen: false })
  })
})
