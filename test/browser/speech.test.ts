import { fileURLToPath } from 'node:url'
import { describe, expect, it, inject } from 'vitest'
import type { Browser, Locator, Page, Response } from 'playwright-core'
import { watchProblems, withBrowser } from './browser.ts'
import { signIn } from './accounts.ts'
import { loadWordFacts } from '../../services/ai/src/vocabulary.ts'

const base = inject('baseUrl')
let browser: Browser

withBrowser((launched) => (browser = launched))

type Category = { id: number; name: string }

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(base + path)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** Counts what the Web Audio API decoded and started, as the page's own code calls it. */
function countAudio(page: Page) {
  // Runs in the page, before its own code (a string: these tests type-check without the DOM).
  return page.addInitScript({
    content: `
      const counts = { decoded: 0, started: 0, playingShown: 0 }
      window.__audio = counts
      // Each time a button comes to read 'Playing...': a clip of one word may show it for less
      // than the time between two polls of a locator on a loaded machine.
      let playing = false
      new MutationObserver(() => {
        const now = [...document.querySelectorAll('button')].some(
          (b) => b.textContent.trim() === 'Playing...',
        )
        if (now && !playing) counts.playingShown += 1
        playing = now
      }).observe(document, { subtree: true, childList: true, characterData: true })
      const decode = AudioContext.prototype.decodeAudioData
      AudioContext.prototype.decodeAudioData = async function (data) {
        const buffer = await decode.call(this, data)
        if (buffer.duration > 0.2) counts.decoded += 1
        return buffer
      }
      const start = AudioBufferSourceNode.prototype.start
      AudioBufferSourceNode.prototype.start = function (...args) {
        counts.started += 1
        return start.apply(this, args)
      }`,
  })
}

interface AudioCounts {
  decoded: number
  started: number
  playingShown: number
}

const audioCounts = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __audio: AudioCounts }).__audio)

const isSpeech = (r: Response) =>
  r.url().endsWith('/api/ai/speech') && r.request().method() === 'POST'

async function startTraining(page: Page, languageOption: RegExp, language: string) {
  const [gestalt] = await getJson<Category[]>(`/api/gestalts?language=${language}`)
  if (!gestalt) throw new Error('no gestalts')
  await page.getByRole('combobox', { name: 'Language' }).click()
  await page.getByRole('option', { name: languageOption }).click()
  await page.getByRole('checkbox', { name: `Select ${gestalt.name}` }).check()
  await page.getByRole('button', { name: 'Start Training' }).click()
  const dialog = page.getByRole('dialog', { name: /Descriptor Training/ })
  await dialog.getByTestId('training-word').waitFor()
  return dialog
}

async function shownWord(dialog: Locator) {
  return (await dialog.getByTestId('training-word').innerText()).trim()
}

describe('the trainer’s voice, signed in', () => {
  it('pronounces a German word through Web Audio and shows an Italian example sentence', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const problems = watchProblems(page)
    await countAudio(page)
    await page.goto(base + '/descriptors')
    await signIn(page, base)
    await page.getByRole('switch', { name: 'AI Voice Assistant Active' }).first().waitFor()

    // The new word is pronounced by itself 500 ms after it appears.
    const automatic = page.waitForResponse(isSpeech)
    const dialog = await startTraining(page, /Deutsch/, 'de')
    const auto = await automatic
    expect(auto.status()).toBe(200)
    expect(auto.headers()['content-type']).toBe('audio/mpeg')
    expect(auto.request().postDataJSON()).toEqual({ word: await shownWord(dialog), language: 'de' })
    const pronounce = dialog.getByRole('button', { name: /^(Pronounce|Playing\.\.\.)$/ })
    await dialog.getByRole('button', { name: 'Pronounce' }).waitFor()

    // Pressed: the same word again, this time from the cache, while 'Playing...' shows.
    const pressed = page.waitForResponse(isSpeech)
    const shownBefore = (await audioCounts(page)).playingShown
    await dialog.getByRole('button', { name: 'Pronounce' }).click()
    const again = await pressed
    expect(again.status()).toBe(200)
    expect(again.headers()['content-type']).toBe('audio/mpeg')
    expect(again.headers()['x-speech-cache']).toBe('hit')
    // Counted in the page, not waited for with a locator: beside two other browser processes a
    // locator once polled past the whole clip.
    await expect
      .poll(async () => (await audioCounts(page)).playingShown)
      .toBeGreaterThan(shownBefore)
    await dialog.getByRole('button', { name: 'Pronounce' }).waitFor()
    expect(await pronounce.count()).toBe(1)
    const counts = await audioCounts(page)
    expect(counts.decoded).toBeGreaterThanOrEqual(2)
    expect(counts.started).toBeGreaterThanOrEqual(2)

    // Voice off: no Pronounce, nothing spoken for the next word.
    await dialog.getByRole('switch', { name: 'AI Voice Assistant Active' }).uncheck()
    expect(await dialog.getByRole('button', { name: 'Pronounce' }).count()).toBe(0)
    await dialog.getByRole('switch', { name: 'AI Voice Assistant Active' }).check()
    await dialog.getByRole('button', { name: 'End Training' }).click()

    // Italian: an example sentence with the word, shown and spoken; Next clears it.
    const italian = await startTraining(page, /Italiano/, 'it')
    const word = await shownWord(italian)
    await italian.getByRole('button', { name: 'Pronounce' }).waitFor()
    const written = page.waitForResponse((r) => r.url().endsWith('/api/ai/sentence-with-speech'))
    await italian.getByRole('button', { name: 'Example Sentence' }).click()
    await italian.getByRole('button', { name: 'Generating...' }).waitFor()
    const answer = await written
    expect(answer.status()).toBe(200)
    const sentence = italian.getByTestId('example-sentence')
    await sentence.waitFor()
    // One of the word's reviewed sentences (they may inflect it: freddo → fredda).
    const shipped = loadWordFacts(
      fileURLToPath(new URL('../../services/descriptors/data', import.meta.url)),
    ).sentences(word, 'it')
    const shown = await sentence.innerText()
    // A community word the vocabulary does not ship gets a template with the word itself.
    if (shipped.length > 0) expect(shipped).toContain(shown)
    else expect(shown).toContain(word)
    expect(await sentence.getAttribute('lang')).toBe('it')
    await italian.getByRole('button', { name: 'Clear' }).click()
    expect(await sentence.count()).toBe(0)

    await italian.getByRole('button', { name: 'Example Sentence' }).click()
    await sentence.waitFor()
    await italian.getByRole('button', { name: 'Next' }).click()
    await sentence.waitFor({ state: 'detached' })

    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  }, 90_000)
})
