// `npm run test:browser`: the browser journeys as two vitest processes side by side, each with
// its own app (global-setup.ts starts one per process: its own data folder, ports and OpenID
// provider), so no journey meets another's data. Most of a journey's time is waiting on the
// page (clips played in real time, polls, animations), so two share the machine's cores: in one
// process the suite took 1,065 s of CI's 2,109 s. Files go to the process with less work so far,
// longest first, by their duration in the last run's report (or the table below on a clean
// clone). Each process's output is printed when it ends; the failures of both come last.
// One file alone: `npx vitest run --config vitest.browser.config.ts test/browser/phone.test.ts`.
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { failuresIn } from './test-failures.ts'
import type { VitestReport } from './test-failures.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const PROCESSES = Math.max(1, Number(process.env.BROWSER_PROCESSES ?? 2))
const REPORT = 'test-results/browser.json'

/**
 * Seconds per file in a clean-clone CI run here (2026-11-28, two processes), for a clone with no
 * report yet. With only the 8 longest named (and 20 s for each other file), the two processes
 * took 339 s and 460 s of files that sum to 733 s.
 */
const KNOWN_SECONDS: Record<string, number> = {
  'ideogram.test.ts': 130,
  'practice.test.ts': 107,
  'routes.test.ts': 104,
  'keyboard.test.ts': 46,
  'practice-judging.test.ts': 40,
  'descriptors.test.ts': 39,
  'phone.test.ts': 39,
  'sign-in.test.ts': 27,
  'practice-contributions.test.ts': 22,
  'prerendered.test.ts': 21,
  'admin.test.ts': 18,
  'shell.test.ts': 17,
  'practice-drafts.test.ts': 15,
  'languages.test.ts': 12,
  'tachistoscope.test.ts': 11,
  'target-import.test.ts': 11,
  'social-sign-in.test.ts': 10,
  'offline.test.ts': 10,
  'sidereal.test.ts': 9,
  'speech.test.ts': 9,
  'practice-suggestions.test.ts': 8,
  'progress.test.ts': 8,
  'shared-browser.test.ts': 8,
  'reviews.test.ts': 7,
  'practice-familiarity.test.ts': 5,
}
/**
 * Files that measure the screen's own timing run alone after the others: the tachistoscope's
 * screen test finds the display's frame rate from animation frames, and beside the other process
 * it read 40 Hz on a 60 Hz screen once (4 frames planned for 100 ms).
 */
const ALONE = ['tachistoscope-screen.test.ts']
/** A file the table does not name. */
const OTHER_SECONDS = 20

function lastDurations(): Map<string, number> {
  const seconds = new Map<string, number>()
  if (!existsSync(join(root, REPORT))) return seconds
  const report = JSON.parse(readFileSync(join(root, REPORT), 'utf8')) as VitestReport
  for (const file of report.testResults) {
    if (file.startTime && file.endTime) {
      seconds.set(file.name.split('/').at(-1) ?? '', (file.endTime - file.startTime) / 1000)
    }
  }
  return seconds
}

/** The files split into `n` groups of about equal duration: longest first, to the lightest group. */
export function split(files: readonly string[], n: number, seconds: Map<string, number>) {
  const groups = Array.from({ length: n }, () => ({ files: [] as string[], seconds: 0 }))
  const time = (f: string) => seconds.get(f) ?? KNOWN_SECONDS[f] ?? OTHER_SECONDS
  for (const file of [...files].sort((a, b) => time(b) - time(a) || a.localeCompare(b))) {
    const lightest = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a))
    lightest.files.push(file)
    lightest.seconds += time(file)
  }
  return groups.filter((g) => g.files.length > 0)
}

function vitest(args: string[], log: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'vitest.browser.config.ts',
        ...args,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const out = createWriteStream(log)
    child.stdout.pipe(out)
    child.stderr.pipe(out)
    child.on('error', reject)
    child.on('close', (code) => out.end(() => resolve(code ?? 1)))
  })
}

/** One report of the processes' reports, where the quality report and CI read it. */
function merge(paths: string[]): void {
  const reports = paths
    .filter((p) => existsSync(join(root, p)))
    .map((p) => JSON.parse(readFileSync(join(root, p), 'utf8')) as VitestReport)
  const sum = (key: 'numTotalTests' | 'numPassedTests' | 'numFailedTests' | 'numPendingTests') =>
    reports.reduce((total, r) => total + r[key], 0)
  const merged: VitestReport = {
    success: reports.length === paths.length && reports.every((r) => r.success),
    numTotalTests: sum('numTotalTests'),
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    testResults: reports.flatMap((r) => r.testResults),
  }
  writeFileSync(join(root, REPORT), JSON.stringify(merged))
}

async function main(): Promise<number> {
  await mkdir(join(root, 'test-results'), { recursive: true })
  const files = readdirSync(join(root, 'test/browser')).filter((f) => f.endsWith('.test.ts'))
  const together = files.filter((f) => !ALONE.includes(f))
  const alone = files.filter((f) => ALONE.includes(f))
  const groups = split(together, PROCESSES, lastDurations())
  const runs = groups.map((group, i) => {
    const report = `test-results/browser-${i + 1}.json`
    const log = join(root, `test-results/browser-${i + 1}.log`)
    console.log(
      `browser process ${i + 1}: ${group.files.length} files, ~${Math.round(group.seconds)} s by the last run`,
    )
    const paths = group.files.map((f) => `test/browser/${f}`)
    return { report, log, done: vitest([`--outputFile.json=${report}`, ...paths], log) }
  })
  const codes = await Promise.all(runs.map((r) => r.done))
  if (alone.length > 0) {
    const n = runs.length + 1
    const report = `test-results/browser-${n}.json`
    const log = join(root, `test-results/browser-${n}.log`)
    console.log(`browser process ${n}, alone: ${alone.join(', ')}`)
    const paths = alone.map((f) => `test/browser/${f}`)
    const done = vitest([`--outputFile.json=${report}`, ...paths], log)
    runs.push({ report, log, done })
    codes.push(await done)
  }
  runs.forEach((r, i) => {
    console.log(`\n-- browser process ${i + 1} (exit ${codes[i]})`)
    process.stdout.write(readFileSync(r.log))
  })
  merge(runs.map((r) => r.report))
  const failed = codes.some((c) => c !== 0)
  if (failed) {
    console.log('\n-- failed browser tests')
    for (const line of failuresIn(runs.map((r) => join(root, r.report)))) console.log(line)
  }
  return failed ? 1 : 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main()
