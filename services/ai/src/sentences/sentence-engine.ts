import type { TrainingLanguage } from '../languages.ts'
import type { WordFacts } from '../vocabulary.ts'
import { openAiEndpoint } from '../engines/openai-speech.ts'
import { render, TEMPLATES, templateForm } from './templates.ts'

/** Writes one example sentence that uses a descriptor. */
export interface SentenceEngine {
  readonly id: string
  sentence(word: string, language: TrainingLanguage): Promise<string>
}

/**
 * The reviewed sentences shipped with the vocabulary (two or more per concept and training
 * language, `services/descriptors/data/sentences.<lang>.csv`); a word without any (a user's own
 * word) goes to `fallback`: the chat server when one is configured, else the templates.
 */
export class ShippedSentenceEngine implements SentenceEngine {
  readonly id: string
  private readonly facts: WordFacts
  private readonly fallback: SentenceEngine
  private readonly random: () => number

  constructor(facts: WordFacts, fallback: SentenceEngine, random: () => number = Math.random) {
    this.facts = facts
    this.fallback = fallback
    this.random = random
    this.id = `shipped+${fallback.id}`
  }

  async sentence(word: string, language: TrainingLanguage): Promise<string> {
    const shipped = this.facts.sentences(word, language)
    const chosen = shipped[Math.floor(this.random() * shipped.length)]
    return chosen ?? this.fallback.sentence(word, language)
  }
}

/** The curated templates: instant, offline, grammatical for every word of the vocabulary. */
export class TemplateSentenceEngine implements SentenceEngine {
  readonly id = 'templates'
  private readonly facts: WordFacts
  private readonly random: () => number

  constructor(facts: WordFacts, random: () => number = Math.random) {
    this.facts = facts
    this.random = random
  }

  async sentence(word: string, language: TrainingLanguage): Promise<string> {
    const form = templateForm(word, language, this.facts.partOfSpeech(word, language))
    const choices = TEMPLATES[language][form]
    const template = choices[Math.floor(this.random() * choices.length)] ?? choices[0] ?? '{w}'
    return render(template, word)
  }
}

const LANGUAGE_NAMES: Record<TrainingLanguage, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
}

export interface OpenAiChatOptions {
  url: string
  apiKey?: string | undefined
  model: string
  timeoutMs: number
  /** Used when the chat server fails or answers something unusable. */
  fallback: SentenceEngine
  onFallback?: (reason: string) => void
}

/** Any OpenAI-compatible `/v1/chat/completions` server; the templates stand in when it fails. */
export class OpenAiSentenceEngine implements SentenceEngine {
  readonly id: string
  private readonly options: OpenAiChatOptions

  constructor(options: OpenAiChatOptions) {
    this.options = options
    this.id = `openai/${options.model}`
  }

  async sentence(word: string, language: TrainingLanguage): Promise<string> {
    try {
      const text = await this.ask(word, language)
      if (text) return text
      this.options.onFallback?.('the chat answer was not one sentence with the word')
    } catch (err) {
      this.options.onFallback?.((err as Error).message)
    }
    return this.options.fallback.sentence(word, language)
  }

  private async ask(word: string, language: TrainingLanguage): Promise<string | null> {
    const res = await fetch(openAiEndpoint(this.options.url, '/chat/completions'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.options.model,
        temperature: 0.7,
        max_tokens: 80,
        messages: [
          {
            role: 'system',
            content:
              'You help people practise Controlled Remote Viewing descriptors. Answer with exactly one short, natural, grammatical sentence and nothing else.',
          },
          {
            role: 'user',
            content: `Write one example sentence in ${LANGUAGE_NAMES[language]} that describes an impression of a place and uses the word "${word}" exactly as written.`,
          },
        ],
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    })
    if (!res.ok) throw new Error(`chat server answered ${res.status}`)
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] }
    const content = body.choices?.[0]?.message?.content
    if (typeof content !== 'string') return null
    const sentence = stripQuotes(content.trim()).trim()
    const usable =
      sentence.length > word.length &&
      sentence.length <= 300 &&
      !/[\r\n]/.test(sentence) &&
      sentence.toLocaleLowerCase().includes(word.toLocaleLowerCase())
    return usable ? sentence : null
  }
}

const OPENING_QUOTES = new Set(['"', "'", '“', '„', '«'])
const CLOSING_QUOTES = new Set(['"', "'", '”', '“', '»'])

/** The sentence without the quotes a chat model wraps it in (one linear pass each side). */
function stripQuotes(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && OPENING_QUOTES.has(text[start] ?? '')) start++
  while (end > start && CLOSING_QUOTES.has(text[end - 1] ?? '')) end--
  return text.slice(start, end)
}
