// Renders the Kustomize trees under deploy/kubernetes the way `kubectl kustomize` does, for the
// fields those trees use and no others: a kustomization field this does not know is an error,
// so the manifests cannot grow a feature the test would silently skip.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'

export type Resource = {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; labels?: Record<string, string> }
  [key: string]: unknown
}

type Generator = {
  name: string
  behavior?: 'create' | 'merge' | 'replace'
  literals?: string[]
  envs?: string[]
}

type JsonPatchOp = { op: 'add' | 'replace'; path: string; value?: unknown }

type Kustomization = {
  apiVersion?: string
  kind?: string
  namespace?: string
  resources?: string[]
  images?: { name: string; newName?: string; newTag?: string }[]
  replicas?: { name: string; count: number }[]
  generatorOptions?: { disableNameSuffixHash?: boolean }
  configMapGenerator?: Generator[]
  secretGenerator?: Generator[]
  patches?: { target: { kind: string; name: string }; patch: string }[]
}

const KNOWN = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'images',
  'replicas',
  'generatorOptions',
  'configMapGenerator',
  'secretGenerator',
  'patches',
])

/** Kinds that live in no namespace. */
const CLUSTER_SCOPED = new Set(['Namespace'])

export type RenderOptions = {
  /** Reads an env file of a generator; the test reads `<file>.example` for the secrets. */
  readEnvFile?: (path: string) => string
}

function parseEnv(text: string): [string, string][] {
  const pairs: [string, string][] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const at = line.indexOf('=')
    if (at <= 0) throw new Error(`not KEY=value: ${line}`)
    pairs.push([line.slice(0, at), line.slice(at + 1)])
  }
  return pairs
}

function generate(
  dir: string,
  generator: Generator,
  kind: 'ConfigMap' | 'Secret',
  options: RenderOptions,
): Resource {
  if (generator.behavior === 'replace') throw new Error('behavior: replace is not supported')
  const pairs: [string, string][] = []
  for (const literal of generator.literals ?? []) pairs.push(...parseEnv(literal))
  for (const file of generator.envs ?? []) {
    const path = join(dir, file)
    pairs.push(...parseEnv((options.readEnvFile ?? ((p) => readFileSync(p, 'utf8')))(path)))
  }
  const entries = Object.fromEntries(pairs)
  const body =
    kind === 'Secret'
      ? {
          type: 'Opaque',
          data: Object.fromEntries(
            Object.entries(entries).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
          ),
        }
      : { data: entries }
  return { apiVersion: 'v1', kind, metadata: { name: generator.name }, ...body }
}

function pointer(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function applyJsonPatch(target: Record<string, unknown>, ops: JsonPatchOp[]): void {
  for (const op of ops) {
    const parts = pointer(op.path)
    const last = parts.pop()
    if (last === undefined) throw new Error(`bad patch path ${op.path}`)
    let node: unknown = target
    for (const part of parts) {
      node = (node as Record<string, unknown>)[part]
      if (node === undefined) throw new Error(`patch path ${op.path} does not exist`)
    }
    const parent = node as Record<string, unknown>
    if (op.op !== 'add' && op.op !== 'replace') throw new Error(`patch op ${String(op.op)}`)
    if (op.op === 'replace' && !(last in parent))
      throw new Error(`patch path ${op.path} does not exist`)
    parent[last] = op.value
  }
}

/** The objects `kubectl kustomize <dir>` prints, in order. */
export function render(dir: string, options: RenderOptions = {}): Resource[] {
  const file = join(dir, 'kustomization.yaml')
  const k = parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as Kustomization
  for (const key of Object.keys(k)) {
    if (!KNOWN.has(key))
      throw new Error(`${file}: field ${key} is not rendered by scripts/lib/kustomize.ts`)
  }
  if (k.kind !== 'Kustomization') throw new Error(`${file}: kind must be Kustomization`)
  if (
    k.generatorOptions?.disableNameSuffixHash !== true &&
    (k.configMapGenerator || k.secretGenerator)
  )
    throw new Error(`${file}: generated names with a hash suffix are not rendered`)

  const out: Resource[] = []
  for (const entry of k.resources ?? []) {
    const path = join(dir, entry)
    if (existsSync(path) && statSync(path).isDirectory()) out.push(...render(path, options))
    else {
      for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
        if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`)
        const value = doc.toJS() as Resource | null
        if (value) out.push(value)
      }
    }
  }
  for (const [list, kind] of [
    [k.configMapGenerator, 'ConfigMap'],
    [k.secretGenerator, 'Secret'],
  ] as const) {
    for (const generator of list ?? []) {
      const made = generate(dir, generator, kind, options)
      const existing = out.find((r) => r.kind === kind && r.metadata.name === generator.name)
      if (generator.behavior === 'merge') {
        if (!existing) throw new Error(`${file}: merge into missing ${kind} ${generator.name}`)
        existing.data = { ...(existing.data as object), ...(made.data as object) }
      } else {
        if (existing) throw new Error(`${file}: ${kind} ${generator.name} generated twice`)
        out.push(made)
      }
    }
  }
  for (const { name, count } of k.replicas ?? []) {
    const target = out.find((r) => r.kind === 'Deployment' && r.metadata.name === name)
    if (!target) throw new Error(`${file}: replicas for missing Deployment ${name}`)
    ;(target.spec as { replicas: number }).replicas = count
  }
  for (const image of k.images ?? []) {
    let used = false
    for (const r of out.filter((r) => r.kind === 'Deployment')) {
      const spec = r.spec as { template: { spec: { containers: { image: string }[] } } }
      for (const container of spec.template.spec.containers) {
        const [name] = container.image.split(':')
        if (name !== image.name) continue
        used = true
        container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`
      }
    }
    if (!used) throw new Error(`${file}: image ${image.name} is used by no container`)
  }
  for (const { target, patch } of k.patches ?? []) {
    const found = out.filter((r) => r.kind === target.kind && r.metadata.name === target.name)
    if (found.length !== 1) throw new Error(`${file}: patch target ${target.kind}/${target.name}`)
    const ops = parseAllDocuments(patch)[0]?.toJS() as JsonPatchOp[]
    applyJsonPatch(found[0] as Record<string, unknown>, ops)
  }
  if (k.namespace) {
    for (const r of out) if (!CLUSTER_SCOPED.has(r.kind)) r.metadata.namespace = k.namespace
  }
  return out
}
