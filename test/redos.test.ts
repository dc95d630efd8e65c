// Every regular expression the server side runs on input, checked for catastrophic backtracking
// with recheck (a ReDoS checker that finds exponential and polynomial cases): the regex literals
// and `new RegExp('…')` calls of the gateway, the kit and every service, and the `pattern`s of
// the contract, which ajv runs on every request. One polynomial pattern on the Authorization
// header froze a service for 37 s; this is the check that would have caught it.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { check } from 'recheck'
import ts from 'typescript'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../', import.meta.url))

interface Found {
  where: string
  source: string
  flags: string
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : []
  })
}

function serverSourceDirs(): string[] {
  const services = readdirSync(join(root, 'services')).map((s) => join(root, 'services', s, 'src'))
  return [join(root, 'packages', 'kit', 'src'), join(root, 'gateway', 'src'), ...services].filter(
    (dir) => {
      try {
        return statSync(dir).isDirectory()
      } catch {
        return false
      }
    },
  )
}

/** Regex literals and `new RegExp(<string literal>[, <flags literal>])` in one file. */
export function regexesIn(path: string, text: string): Found[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const found: Found[] = []
  const where = (node: ts.Node) =>
    `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  const visit = (node: ts.Node) => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text
      const end = literal.lastIndexOf('/')
      found.push({
        where: where(node),
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      })
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [pattern, flags] = node.arguments ?? []
      if (pattern && ts.isStringLiteralLike(pattern)) {
        found.push({
          where: where(node),
          source: pattern.text,
          flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '',
        })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

function contractPatterns(): Found[] {
  const found: Found[] = []
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}/${i}`))
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        // ajv compiles `pattern` with the unicode flag.
        if (key === 'pattern' && typeof child === 'string')
          found.push({ where: `openapi.yaml#${path}`, source: child, flags: 'u' })
        else walk(child, `${path}/${key}`)
      }
    }
  }
  walk(parse(readFileSync(join(root, 'openapi', 'openapi.yaml'), 'utf8')), '')
  return found
}

async function vulnerable(found: Found[]) {
  const results = await Promise.all(
    found.map(async (f) => ({ ...f, result: await check(f.source, f.flags, { timeout: 10_000 }) })),
  )
  return results
    .filter((r) => r.result.status !== 'safe')
    .map((r) => ({
      where: r.where,
      pattern: `/${r.source}/${r.flags}`,
      status: r.result.status,
      ...(r.result.status === 'vulnerable'
        ? { complexity: r.result.complexity.type, attack: r.result.attack.pattern }
        : {}),
    }))
}

describe('regular expressions on input', () => {
  it('finds the patterns it is meant to check', () => {
    const sample = regexesIn(
      'sample.ts',
      "const a = /^\\S+\\.\\S+$/i; const b = new RegExp('^x+$', 'u'); const c = 'no /regex/ here'",
    )
    expect(sample.map((f) => [f.source, f.flags])).toEqual([
      ['^\\S+\\.\\S+$', 'i'],
      ['^x+$', 'u'],
    ])
  })

  it('reports a polynomial pattern as vulnerable (the Authorization header ReDoS)', async () => {
    const report = await vulnerable([
      { where: 'planted', source: '^\\S+\\.\\S+\\.\\S*$', flags: '' },
    ])
    expect(report).toEqual([expect.objectContaining({ status: 'vulnerable' })])
  })

  it('no pattern of the gateway, the kit or a service backtracks catastrophically', async () => {
    const found = serverSourceDirs()
      .flatMap(sourceFiles)
      .flatMap((path) => regexesIn(path, readFileSync(path, 'utf8')))
    // Enough to know the scan reached the code (there are dozens).
    expect(found.length).toBeGreaterThan(30)
    expect(await vulnerable(found)).toEqual([])
  }, 120_000)

  it('no pattern of the contract (ajv runs them on every request) backtracks catastrophically', async () => {
    const found = contractPatterns()
    expect(found.length).toBeGreaterThan(5)
    expect(await vulnerable(found)).toEqual([])
  }, 120_000)
})
