import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import type { Browser, Request } from 'playwright-core'
import { launchBrowser } from '../../test/kit/browser.ts'
import { verdict } from '../lib.ts'
import type { Check, Section } from '../lib.ts'
import { startApp } from './app.ts'

const BUDGET_KIB = 250
const ROUTES = ['/', '/descriptors', '/descriptor-training', '/sidereal-time', '/practice']

type Load = {
  scripts: number
  gzipKiB: number
  rawKiB: number
  encodings: Set<string>
  /** The largest scripts: file name without its hash, KiB as transferred. */
  largest: [string, number][]
}

/** In the page: the moment `#root` is there and not inert, as `window.crvLiveAt` (ms since 1970). */
const markLive = `
  const mark = () => {
    const root = document.getElementById('root')
    if (root && !root.hasAttribute('inert')) window.crvLiveAt ??= Date.now()
  }
  document.addEventListener('DOMContentLoaded', () => {
    mark()
    if (window.crvLiveAt !== undefined) return
    new MutationObserver(mark).observe(document.documentElement, {
      subtree: true,
      attributes: true,
      attributeFilter: ['inert'],
    })
  })
`

/**
 * The JavaScript a first visit fetches before the page is live (`#root` no longer inert), as
 * the browser received it over a connection that asks for gzip only (DESIGN §7 budgets it
 * gzipped). Sizes are the response bodies as transferred, read from the browser. The moment the
 * page goes live is taken in the page itself and each script's start from the browser's own
 * timing: what the app fetches once it is live (the parts it loads when idle) is not initial,
 * and a check made from this side, a round trip later, would count some of it.
 */
async function initialScripts(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    extraHTTPHeaders: { 'accept-encoding': 'gzip' },
  })
  const page = await context.newPage()
  await page.addInitScript({ content: markLive })
  const requests: Request[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') requests.push(request)
  })
  await page.goto(url)
  // Functions, not strings: the app's content security policy refuses eval.
  const liveAtInPage = () => (globalThis as { crvLiveAt?: number }).crvLiveAt
  await page.waitForFunction(liveAtInPage, null, { timeout: 60_000 })
  const liveAt = (await page.evaluate(liveAtInPage)) ?? 0
  // Every request made before that moment has been reported by now.
  await page.waitForTimeout(1_500)
  const initial = requests.filter((request) => request.timing().startTime <= liveAt)
  const done = await Promise.all(
    initial.map(async (request) => {
      const response = await request.response()
      const sizes = await request.sizes()
      const raw = (await response?.body().catch(() => Buffer.alloc(0)))?.length ?? 0
      return {
        name:
          new URL(request.url()).pathname
            .split('/')
            .pop()
            ?.replace(/-[\w-]{8}\.js$/, '') ?? '',
        body: sizes.responseBodySize,
        raw,
        encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
      }
    }),
  )
  await context.close()
  return {
    scripts: done.length,
    gzipKiB: done.reduce((sum, s) => sum + s.body, 0) / 1024,
    rawKiB: done.reduce((sum, s) => sum + s.raw, 0) / 1024,
    encodings: new Set(done.map((s) => s.encoding)),
    largest: done
      .sort((a, b) => b.body - a.body)
      .slice(0, 6)
      .map((s) => [s.name, s.body / 1024]),
  }
}

/**
 * A page whose one script is about 300 KiB gzipped: the measure must read it over the budget. It
 * fetches the same again once it is live, which the measure must leave out (as the app's idle
 * loading of its menus and dialogs).
 */
async function heavyPage(): Promise<{ url: string; gzipKiB: number; close: () => void }> {
  const script = gzipSync(Buffer.from(`window.x = "${randomBytes(300 * 1024).toString('base64')}"`))
  const server = createServer((req, res) => {
    if (req.url === '/heavy.js' || req.url === '/later.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'content-encoding': 'gzip' })
      res.end(script)
      return
    }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(
      '<div id="root"></div><script src="/heavy.js"></script>' +
        '<script>setTimeout(() => document.head.append(Object.assign(document.createElement("script"), { src: "/later.js" })), 200)</script>',
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    gzipKiB: script.length / 1024,
    close: () => server.close(),
  }
}

export async function initialJavaScript(): Promise<Section> {
  const app = await startApp()
  const browser = await launchBrowser()
  try {
    // One visit not counted: the services' first answers are cold.
    await initialScripts(browser, `${app.base}/`)
    const rows: string[] = []
    const budgets: Check[] = []
    let home: Load | undefined
    for (const route of ROUTES) {
      const load = await initialScripts(browser, `${app.base}${route}`)
      home ??= load
      const ok = load.gzipKiB <= BUDGET_KIB && !load.encodings.has('br')
      budgets.push({
        what: `\`${route}\` ${load.gzipKiB.toFixed(1)} KiB gzipped (≤ ${BUDGET_KIB}, gzip only)`,
        ok,
      })
      rows.push(
        `| \`${route}\` | ${load.scripts} | ${load.gzipKiB.toFixed(1)} KiB | ${load.rawKiB.toFixed(0)} KiB | ${[...load.encodings].join(', ')} | ${ok ? 'yes' : '**no**'} |`,
      )
    }
    const heavy = await heavyPage()
    let check: Load
    try {
      check = await initialScripts(browser, heavy.url)
    } finally {
      heavy.close()
    }
    const checkReads = check.gzipKiB > BUDGET_KIB && Math.abs(check.gzipKiB - heavy.gzipKiB) < 1
    return {
      markdown: [
        '## Initial JavaScript',
        '',
        `Each public route of the whole app on its embedded defaults, a first visit in headless Chromium asking for gzip only (no service worker): the scripts fetched before the page is live, as transferred. Budget (DESIGN.md §7): ${BUDGET_KIB} KB gzipped.`,
        '',
        '| route | scripts | gzipped, transferred | unpacked | encoding | within budget |',
        '|---|---:|---:|---:|---|---|',
        ...rows,
        '',
        `Largest on \`/\`: ${(home?.largest ?? []).map(([name, kib]) => `${name} ${kib.toFixed(1)} KiB`).join(', ')}.`,
        '',
        `Self-check: a page whose one script is ${heavy.gzipKiB.toFixed(1)} KiB gzipped (as served), and which fetches as much again once it is live, reads ${check.gzipKiB.toFixed(1)} KiB (must read over ${BUDGET_KIB}, within 1 KiB of what was served): ${checkReads ? 'yes' : '**no**'}.`,
        '',
        verdict(
          `DESIGN.md §7, initial JavaScript ≤ ${BUDGET_KIB} KB gzipped on every public route`,
          [
            ...budgets,
            {
              what: `a ${heavy.gzipKiB.toFixed(1)} KiB script read ${check.gzipKiB.toFixed(1)} KiB`,
              ok: checkReads,
              selfCheck: true,
            },
          ],
        ),
        '',
      ].join('\n'),
    }
  } finally {
    await browser.close()
    await app.close()
  }
}
