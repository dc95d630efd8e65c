// The shape of every service (issue [26]; docs/contributing.md), checked on the import graph:
// a request's calls go routes -> domain -> repository, never from a lower layer up. A type-only
// import carries no call and is allowed anywhere. ESLint holds the rest of the shape (no SQL
// outside repositories, no caller helpers, no request casts).
import { globSync, readFileSync } from 'node:fs'
import { basename, dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

/**
 * A file's layer: the composition root (app, server, worker) wires everything; routes call the
 * domain; repositories hold the statements. A pure file (one from which no repository, routes or
 * composition file can be reached: a rule, a view, a schema, a config) can be called from any
 * layer, since it cannot call up.
 */
function rankOf(file: string, graph: Graph): number {
  const name = basename(file)
  if (['app.ts', 'server.ts', 'worker.ts'].includes(name) && /\/src\/[^/]+$/.test(file)) return 4
  if (name === 'routes.ts') return 3
  if (name === 'repository.ts' || /\/db\//.test(file) || isPure(file, graph)) return 0
  return 2
}

interface Graph {
  files: Set<string>
  importsOf: (file: string) => string[]
}

function isPure(file: string, graph: Graph, seen = new Set<string>()): boolean {
  if (seen.has(file)) return true
  seen.add(file)
  return graph.importsOf(file).every((t) => {
    if (!graph.files.has(t)) return true
    const name = basename(t)
    if (name === 'repository.ts' || name === 'routes.ts') return false
    if (['app.ts', 'server.ts', 'worker.ts'].includes(name)) return false
    return isPure(t, graph, seen)
  })
}

/** Each value import that goes from a lower layer to a higher one, as "from -> to". */
function upwardCalls(graph: Graph): string[] {
  const upward: string[] = []
  for (const file of graph.files) {
    for (const target of graph.importsOf(file)) {
      if (graph.files.has(target) && rankOf(target, graph) > rankOf(file, graph)) {
        upward.push(`${relative(root, file)} -> ${relative(root, target)}`)
      }
    }
  }
  return upward
}

/** The files a module imports for their values (not `import type`), resolved to paths. */
export function valueImports(file: string, source = readFileSync(file, 'utf8')): string[] {
  const found: string[] = []
  const statement = /^\s*(import|export)\s+(?!type\s)([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/gm
  for (const match of source.matchAll(statement)) {
    const clause = match[2] ?? ''
    // `import { type A, type B } from` carries no value either.
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1]
    if (names !== undefined && names.split(',').every((n) => /^\s*(type\s|$)/.test(n))) continue
    found.push(resolve(dirname(file), match[3] ?? ''))
  }
  return found
}

const sources = globSync(['services/*/src/**/*.ts', 'gateway/src/**/*.ts'], { cwd: root })
  .filter((f) => !f.endsWith('.d.ts'))
  .map((f) => resolve(root, f))

describe('every service', () => {
  it('calls down its layers only: routes -> domain -> repository', () => {
    const imports = new Map(sources.map((f) => [f, valueImports(f)]))
    expect(
      upwardCalls({ files: new Set(sources), importsOf: (f) => imports.get(f) ?? [] }),
    ).toEqual([])
  })

  it('finds a call from a lower layer up (the check can fail)', () => {
    const at = (f: string) => resolve(root, 'services/x/src', f)
    const graph: Record<string, string[]> = {
      [at('app.ts')]: [at('a/routes.ts')],
      [at('a/routes.ts')]: [at('a/a.ts'), at('a/views.ts')],
      [at('a/a.ts')]: [at('a/repository.ts'), at('a/rules.ts')],
      [at('a/views.ts')]: [at('a/rules.ts')],
      [at('a/rules.ts')]: [],
      [at('a/repository.ts')]: [at('a/rules.ts'), at('a/a.ts')],
    }
    expect(
      upwardCalls({ files: new Set(Object.keys(graph)), importsOf: (f) => graph[f] ?? [] }),
    ).toEqual(['services/x/src/a/repository.ts -> services/x/src/a/a.ts'])
  })

  it('keeps routes files calling their domain, never a repository', () => {
    const direct = sources
      .filter((f) => basename(f) === 'routes.ts')
      .flatMap((f) =>
        valueImports(f)
          .filter((t) => basename(t) === 'repository.ts')
          .map((t) => `${relative(root, f)} -> ${relative(root, t)}`),
      )
    expect(direct).toEqual([])
  })

  it('reads value imports, not type-only ones (the check can fail)', () => {
    const file = resolve(root, 'services/x/src/a/repository.ts')
    expect(
      valueImports(
        file,
        [
          "import { load } from './a.ts'",
          "import type { Row } from './routes.ts'",
          "import { type View } from './views.ts'",
          "export { handlers } from '../b/routes.ts'",
        ].join('\n'),
      ).map((t) => relative(root, t)),
    ).toEqual(['services/x/src/a/a.ts', 'services/x/src/b/routes.ts'])
  })
})
