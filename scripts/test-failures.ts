// The tests that failed in vitest's JSON reports, with the first lines of each failure: CI shows
// only the end of its output, and a failed pass's log can be thousands of lines long.
// Usage: node scripts/test-failures.ts test-results/unit.json [more.json ...]
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export interface VitestReport {
  success: boolean
  numTotalTests: number
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  testResults: {
    name: string
    status: string
    message?: string
    startTime?: number
    endTime?: number
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[]
  }[]
}

const firstLines = (text: string) => text.split('\n').slice(0, 8).join('\n  ')

/** One line (and the failure's first lines) per failed test or file, then a count per report. */
export function failuresIn(paths: readonly string[]): string[] {
  const out: string[] = []
  for (const path of paths) {
    if (!existsSync(path)) {
      out.push(`${path}: no report (the run stopped before vitest wrote one)`)
      continue
    }
    const report = JSON.parse(readFileSync(path, 'utf8')) as VitestReport
    let failed = 0
    for (const file of report.testResults) {
      const name = file.name.replace(`${process.cwd()}/`, '')
      const tests = file.assertionResults.filter((t) => t.status === 'failed')
      if (file.status === 'failed' && tests.length === 0) {
        failed += 1
        out.push(`FAILED ${name}: ${firstLines(file.message ?? '')}`)
      }
      for (const test of tests) {
        failed += 1
        out.push(
          `FAILED ${name} > ${test.fullName}\n  ${firstLines(test.failureMessages[0] ?? '')}`,
        )
      }
    }
    out.push(`${path}: ${failed} failed`)
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of failuresIn(process.argv.slice(2))) console.log(line)
}
