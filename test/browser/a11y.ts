// Accessibility checks with axe-core, run inside the page under test.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'),
  'utf8',
)

/** The page's globals used below (this test project is typed without the DOM library). */
type AxeWindow = {
  axe?: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> }
  document: unknown
}

type AxeNode = { target: unknown[]; html: string; failureSummary?: string }
type AxeViolation = { id: string; impact: string | null; help: string; nodes: AxeNode[] }

/** The impacts that fail a page: 'serious' and 'critical' (moderate and minor are reported). */
const failing = new Set(['serious', 'critical'])

type Animation = {
  playState: string
  finished: Promise<unknown>
  effect: { getComputedTiming(): { iterations?: number } } | null
}

/**
 * Waits for the page's finite animations and transitions (a toast fading in, a button turning
 * from disabled to enabled) to end: mid-way, axe measures blended colours that no one reads.
 * Endless ones (spinners, skeletons, the focus ripple) are left running.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { document } = globalThis as unknown as { document: { getAnimations(): Animation[] } }
    for (let round = 0; round < 20; round++) {
      const running = document
        .getAnimations()
        .filter(
          (a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity,
        )
      if (running.length === 0) return
      await Promise.allSettled(running.map((a) => a.finished))
    }
  })
}

/** What axe says is wrong with an element, on one line (e.g. the colours and the ratio). */
const summary = (node: AxeNode) =>
  (node.failureSummary ?? '')
    .replace(/^Fix (any|all) of the following:\s*/, '')
    .replace(/\s+/g, ' ')

/**
 * Runs axe-core on the whole document and returns its serious and critical violations, one line
 * per element: `rule (impact) selector — html`.
 *
 * axe is evaluated through the DevTools protocol rather than added as a <script> tag: the
 * gateway's Content-Security-Policy (`script-src 'self'`) rightly refuses inline scripts, and
 * turning CSP off for the test would hide the app's own CSP problems.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const first = await axeLines(page)
  if (first.length === 0) return first
  // A control that changed state just after the wait (a button enabled once its data arrived)
  // reads in blended colours for one pass; a real violation is there again a moment later.
  await page.waitForTimeout(500)
  const again = new Set(await axeLines(page))
  return first.filter((line) => again.has(line))
}

async function axeLines(page: Page): Promise<string[]> {
  await transitionsEnded(page)
  const installed = await page.evaluate(
    () => (globalThis as unknown as AxeWindow).axe !== undefined,
  )
  if (!installed) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as AxeWindow
    if (!axe) throw new Error('axe-core did not load')
    const results = await axe.run(document, { resultTypes: ['violations'] })
    return results.violations
  })
  return violations
    .filter((v) => failing.has(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact}) ${n.target.map(String).join(' ')} — ${n.html.slice(0, 200)} — ${summary(n)}`,
      ),
    )
}
