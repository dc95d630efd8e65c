// The second reading of a phone's first load (issue [27] item 4): the Lighthouse command line
// with a fresh browser for every run, as a person or a CI job runs it. The bench's own reading
// (./lighthouse.ts) keeps one browser for all runs, whose warm process and compiled code read a
// few points higher: `/` read 91-97 there and 88, 89 and 97 from the command line on one machine.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** What one run of the command line measured. */
export interface CliRun {
  score: number
  lcpMs: number
  tbtMs: number
}

const cli = fileURLToPath(new URL('../../node_modules/lighthouse/cli/index.js', import.meta.url))

/** One run of `lighthouse <url>` (mobile preset, performance only) in a browser of its own. */
export function lighthouseCli(url: string, chromePath: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        url,
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        '--only-categories=performance',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ],
      { env: { ...process.env, CHROME_PATH: chromePath }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse ${url} exited with ${code}: ${err}`))
      try {
        const lhr = JSON.parse(out) as {
          categories: { performance?: { score: number | null } }
          audits: Record<string, { numericValue?: number }>
          runtimeError?: { message: string }
        }
        if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`)
        resolve({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
          tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
        })
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  })
}

/** `runs` command-line runs of `url`, one after another, each in a fresh browser. */
export async function lighthouseCliRuns(
  url: string,
  chromePath: string,
  runs: number,
): Promise<CliRun[]> {
  const all: CliRun[] = []
  for (let i = 0; i < runs; i++) {
    try {
      all.push(await lighthouseCli(url, chromePath))
    } catch (error) {
      // Lighthouse now and then loses its own trace (NO_NAVSTART, NO_FCP): that run once more.
      if (!/\((NO_NAVSTART|NO_FCP|NO_LCP)\)/.test(String(error))) throw error
      all.push(await lighthouseCli(url, chromePath))
    }
  }
  return all
}
