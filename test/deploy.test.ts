// Static checks of the deployment files (no Docker engine needed): docker-compose.yml against the
// Compose Specification's JSON schema, and the Dockerfiles it builds from.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FormatsPlugin } from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { SERVICES as routedServices, configShape as gatewayConfig } from '../gateway/src/config.ts'
import {
  GATEWAY_NODE_FLAGS,
  SERVICE_NODE_FLAGS,
  serviceNodeFlags,
} from '../scripts/lib/node-flags.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const composePath = join(root, 'docker-compose.yml')

type EnvValue = string | number | boolean | null

interface BuildConfig {
  context?: string
  dockerfile?: string
  args?: Record<string, string | number | boolean | null> | string[]
}

interface ServiceConfig {
  image?: string
  build?: string | BuildConfig
  command?: string | string[]
  environment?: Record<string, EnvValue> | string[]
  depends_on?: string[] | Record<string, { condition?: string }>
  healthcheck?: { test?: string | string[]; disable?: boolean | string }
  ports?: (string | number | { target?: number | string; published?: number | string })[]
  networks?: string[] | Record<string, unknown>
  deploy?: { replicas?: number | string }
  restart?: string
}

interface ComposeFile {
  services: Record<string, ServiceConfig>
  networks?: Record<string, unknown>
  volumes?: Record<string, unknown>
}

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as FormatsPlugin

function loadComposeSchema(): Record<string, unknown> {
  const require = createRequire(import.meta.url)
  const dclintDir = dirname(require.resolve('dclint/package.json'))
  const schemaPath = join(dclintDir, 'schemas', 'compose.schema.json')
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>
  // draft-07 meta-schema URL that ajv does not know by that spelling; the keywords are draft-07.
  delete schema.$schema
  return schema
}

// Merge keys (`<<: *anchor`) are resolved as Compose resolves them.
function parseCompose(text: string): unknown {
  return parse(text, { merge: true }) as unknown
}

function buildOf(service: ServiceConfig): BuildConfig | undefined {
  if (service.build === undefined) return undefined
  return typeof service.build === 'string' ? { context: service.build } : service.build
}

function argsOf(build: BuildConfig): Record<string, string> {
  const out: Record<string, string> = {}
  if (Array.isArray(build.args)) {
    for (const entry of build.args) {
      const [key = '', ...rest] = entry.split('=')
      out[key] = rest.join('=')
    }
  } else if (build.args) {
    for (const [key, value] of Object.entries(build.args)) out[key] = String(value ?? '')
  }
  return out
}

function environmentOf(service: ServiceConfig): Record<string, EnvValue> {
  const env = service.environment
  if (!Array.isArray(env)) return env ?? {}
  const out: Record<string, EnvValue> = {}
  for (const entry of env) {
    const index = entry.indexOf('=')
    if (index < 0) out[entry] = null
    else out[entry.slice(0, index)] = entry.slice(index + 1)
  }
  return out
}

function dependenciesOf(service: ServiceConfig): Record<string, string> {
  const deps = service.depends_on
  if (deps === undefined) return {}
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']))
  return Object.fromEntries(
    Object.entries(deps).map(([name, dep]) => [name, dep.condition ?? 'service_started']),
  )
}

// ---- a small Dockerfile reader: enough for FROM / USER / HEALTHCHECK / ARG per stage ----

interface Instruction {
  keyword: string
  args: string
}

interface Stage {
  base: string
  name: string | undefined
  instructions: Instruction[]
}

interface Dockerfile {
  directives: string[]
  /** ARGs declared before the first FROM, with their defaults: FROM may use them. */
  globalArgs: Record<string, string>
  stages: Stage[]
}

function readDockerfile(text: string): Dockerfile {
  const directives: string[] = []
  const globalArgs: Record<string, string> = {}
  const stages: Stage[] = []
  let pending = ''
  let inPreamble = true
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (inPreamble && /^#\s*\w+\s*=/.test(line)) {
      directives.push(line.replace(/^#\s*/, ''))
      continue
    }
    if (line === '' || line.startsWith('#')) {
      if (line === '') inPreamble = false
      continue
    }
    inPreamble = false
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `
      continue
    }
    const full = `${pending}${line}`.trim()
    pending = ''
    const match = /^(\S+)\s*(.*)$/.exec(full)
    if (!match) continue
    const keyword = (match[1] ?? '').toUpperCase()
    const args = match[2] ?? ''
    if (keyword === 'ARG' && stages.length === 0) {
      const [name = '', ...value] = args.trim().split('=')
      globalArgs[name] = value.join('=')
    } else if (keyword === 'FROM') {
      // A FROM names its base through the global ARGs' defaults, as `docker build` without
      // --build-arg resolves it.
      const resolved = args.replace(
        /\$\{(\w+)\}|\$(\w+)/g,
        (_, braced?: string, bare?: string) => globalArgs[braced ?? bare ?? ''] ?? '',
      )
      const words = resolved.split(/\s+/).filter((word) => !word.startsWith('--'))
      const asIndex = words.findIndex((word) => word.toUpperCase() === 'AS')
      stages.push({
        base: words[0] ?? '',
        name: asIndex >= 0 ? words[asIndex + 1] : undefined,
        instructions: [],
      })
    } else {
      stages.at(-1)?.instructions.push({ keyword, args })
    }
  }
  return { directives, globalArgs, stages }
}

// The final stage and the stages it is built on (a FROM may name an earlier stage).
function finalStageChain(file: Dockerfile): Stage[] {
  const chain: Stage[] = []
  let stage = file.stages.at(-1)
  while (stage && !chain.includes(stage)) {
    chain.push(stage)
    const base = stage.base
    stage = file.stages.find((candidate) => candidate.name === base)
  }
  return chain
}

function lastInstruction(chain: Stage[], keyword: string): Instruction | undefined {
  for (const stage of chain) {
    const found = stage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1)
    if (found) return found
  }
  return undefined
}

// ---- .dockerignore, with Docker's rules: patterns from the context root, `*` within one path
// segment, `**` across segments, `!` re-includes, the last matching line wins, and a pattern that
// matches a folder excludes everything in it.

function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!')
      const pattern = (include ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '')
      const segments = pattern.split('/')
      const source = segments
        .map((segment, index) => {
          const last = index === segments.length - 1
          if (segment === '**') return last ? '.*' : '(?:[^/]+/)*'
          const piece = segment
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]')
          return last ? piece : `${piece}/`
        })
        .join('')
      return { include, regex: new RegExp(`^${source}$`) }
    })
  return (path) => {
    const segments = path.split('/')
    const prefixes = segments.map((_, index) => segments.slice(0, index + 1).join('/'))
    let ignored = false
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regex.test(prefix))) ignored = !rule.include
    }
    return ignored
  }
}

function filesUnder(dir: string, skip: RegExp): string[] {
  if (!existsSync(join(root, dir))) return []
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (skip.test(entry.name)) return []
    return entry.isDirectory() ? filesUnder(path, skip) : [path]
  })
}

// -------------------------------------------------------------------------------------------

let validate: ValidateFunction<ComposeFile>
let compose: ComposeFile

beforeAll(() => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  validate = ajv.compile<ComposeFile>(loadComposeSchema())
  const document = parseCompose(readFileSync(composePath, 'utf8'))
  if (!validate(document)) {
    throw new Error(`docker-compose.yml is invalid: ${ajv.errorsText(validate.errors)}`)
  }
  compose = document
})

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema (dclint copy)', () => {
    expect(validate(parseCompose(readFileSync(composePath, 'utf8')))).toBe(true)
    expect(compose).not.toHaveProperty('version')
  })

  it('fails the schema when the file is broken', () => {
    const unknownTopLevelKey = { ...structuredClone(compose), servces: {} }
    expect(validate(unknownTopLevelKey)).toBe(false)

    const servicesAsArray = {
      ...structuredClone(compose),
      services: Object.values(compose.services),
    }
    expect(validate(servicesAsArray)).toBe(false)

    const badService = structuredClone(compose)
    // `restart_policy` belongs under deploy:, not on the service.
    badService.services.gateway = {
      ...badService.services.gateway,
      restart_policy: 'always',
    } as ServiceConfig
    expect(validate(badService)).toBe(false)

    const badReplicas = structuredClone(compose)
    badReplicas.services['ai-worker'] = {
      ...badReplicas.services['ai-worker'],
      deploy: { replicas: [2] as unknown as number },
    }
    expect(validate(badReplicas)).toBe(false)
  })

  it('runs every process with the V8 flags the launcher gives it', () => {
    const cmdOf = (dockerfile: string) =>
      JSON.parse(
        /^CMD (\[.*\])$/m.exec(readFileSync(join(root, dockerfile), 'utf8'))?.[1] ?? 'null',
      ) as string[] | null
    expect(cmdOf('deploy/service.Dockerfile')).toEqual([
      'node',
      ...SERVICE_NODE_FLAGS,
      'src/server.ts',
    ])
    expect(cmdOf('deploy/gateway.Dockerfile')).toEqual([
      'node',
      ...GATEWAY_NODE_FLAGS,
      'src/server.ts',
    ])
    for (const name of routedServices) {
      const { command } = compose.services[name] as ServiceConfig
      const expected = ['node', ...serviceNodeFlags(name), 'src/server.ts']
      expect(command ?? cmdOf('deploy/service.Dockerfile'), name).toEqual(expected)
    }
  })

  // The gateway's own list of the services it routes /api/* to (gateway/src/config.ts).
  it('has the data stores, the gateway, every routed service and the speech workers', () => {
    const names = Object.keys(compose.services)
    for (const name of ['postgres', 'redis', 'minio', 'minio-init', 'gateway', 'ai-worker']) {
      expect(names).toContain(name)
    }
    for (const name of routedServices) expect(names).toContain(name)
  })

  it('points the gateway at every routed service on the port that service listens on', () => {
    expect(routedServices).toEqual(
      expect.arrayContaining(['auth', 'descriptors', 'media', 'ai', 'astro']),
    )
    const gatewayEnv = environmentOf(compose.services.gateway ?? {})
    for (const name of routedServices) {
      const variable = `${name.toUpperCase()}_URL`
      expect(Object.keys(gatewayConfig), `the gateway reads ${variable}`).toContain(variable)
      const url = gatewayEnv[variable]
      expect(typeof url, variable).toBe('string')
      const target = new URL(String(url))
      expect(target.hostname).toBe(name)
      const service = compose.services[name]
      expect(service, name).toBeDefined()
      expect(String(environmentOf(service ?? {}).PORT)).toBe(target.port)
    }
  })

  it('runs Redis with an append-only file', () => {
    const command = compose.services.redis?.command
    const words = Array.isArray(command) ? command : (command ?? '').split(/\s+/)
    const index = words.indexOf('--appendonly')
    expect(index).toBeGreaterThanOrEqual(0)
    expect(words[index + 1]).toBe('yes')
  })

  it('runs at least two speech workers from the ai image, second entry point', () => {
    const worker = compose.services['ai-worker']
    expect(Number(worker?.deploy?.replicas)).toBeGreaterThanOrEqual(2)
    const build = buildOf(worker ?? {})
    expect(build && argsOf(build).SERVICE).toBe('ai')
    expect([worker?.command].flat().join(' ')).toContain('src/worker.ts')
  })

  it('publishes only the gateway among the app services', () => {
    const published = Object.entries(compose.services)
      .filter(([, service]) => (service.ports ?? []).length > 0)
      .map(([name]) => name)
    expect(published).toEqual(['gateway'])
  })

  it('waits only on services that exist, and on health only where there is a healthcheck', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, condition] of Object.entries(dependenciesOf(service))) {
        const target = compose.services[dependency]
        expect(target, `${name} depends on ${dependency}`).toBeDefined()
        if (condition === 'service_healthy') {
          const hasOwnCheck = target?.healthcheck?.test !== undefined
          const build = buildOf(target ?? {})
          expect(hasOwnCheck || build !== undefined, `${dependency} needs a healthcheck`).toBe(true)
          expect(target?.healthcheck?.disable, `${dependency} healthcheck disabled`).not.toBe(true)
        }
      }
    }
  })

  it('keeps every service on the one network and restarts long-running ones', () => {
    const networks = Object.keys(compose.networks ?? {})
    expect(networks).toHaveLength(1)
    for (const [name, service] of Object.entries(compose.services)) {
      const attached = Array.isArray(service.networks)
        ? service.networks
        : Object.keys(service.networks ?? {})
      expect(attached, name).toEqual(networks)
      if (name !== 'minio-init') expect(service.restart, name).toBe('unless-stopped')
    }
  })

  it("has the services trust the stack's network for client addresses, and the gateway not", () => {
    const [network] = Object.values(compose.networks ?? {}) as {
      ipam?: { config?: { subnet?: string }[] }
    }[]
    const subnet = network?.ipam?.config?.[0]?.subnet
    expect(subnet, 'the backend network has a fixed subnet').toMatch(/\d+\.\d+\.\d+\.\d+\/\d+/)
    for (const name of routedServices) {
      // Left at loopback, every client reached a service as the gateway: one per-IP limit for all.
      expect(environmentOf(compose.services[name] ?? {}).TRUST_PROXY, name).toBe(subnet)
    }
    // The gateway's published port arrives through the network's bridge address: trusting the
    // network there would let any client name its own address.
    expect(environmentOf(compose.services.gateway ?? {}).TRUST_PROXY ?? null).toBeNull()
  })

  it('interpolates only well-formed ${VAR} forms ($$ for a literal dollar)', () => {
    const text = readFileSync(composePath, 'utf8').replaceAll('$$', '')
    const wellFormed = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-?+][^}]*)?\}/
    const bad = [...text.matchAll(/\$/g)]
      .map((match) => text.slice(match.index))
      .filter((rest) => !wellFormed.test(rest))
      .map((rest) => rest.slice(0, 40))
    expect(bad).toEqual([])
  })

  it('requires PUBLIC_URL from the environment where a process runs in production, never an http default', () => {
    // Defaulted to http://localhost:8080, the stack started with a refresh cookie that was not Secure.
    const required = /^\$\{PUBLIC_URL:\?[^}]*https[^}]*\}$/
    const production = Object.entries(compose.services).filter(
      ([, service]) => environmentOf(service).NODE_ENV === 'production',
    )
    expect(production.map(([name]) => name)).toEqual(expect.arrayContaining(['gateway', 'auth']))
    for (const [name, service] of production)
      expect(String(environmentOf(service).PUBLIC_URL), name).toMatch(required)
  })

  it('writes no secret in the file: secrets come from the environment', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(environmentOf(service))) {
        if (!/PASSWORD|SECRET|_KEYS?(_|$)|TOKEN/.test(key)) continue
        expect(value === null || /\$\{[A-Z0-9_]+/.test(String(value)), `${name}.${key}`).toBe(true)
      }
    }
  })
})

function workspaceManifests(): string[] {
  const workspaces = ['packages', 'services'].flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(root, dir, entry.name, 'package.json')),
      )
      .map((entry) => `${dir}/${entry.name}`),
  )
  return [
    'package.json',
    'package-lock.json',
    'gateway/package.json',
    'frontend/package.json',
  ].concat(workspaces.map((workspace) => `${workspace}/package.json`))
}

describe('Dockerfiles', () => {
  const built = (): [string, BuildConfig][] =>
    Object.entries(compose.services)
      .map(([name, service]): [string, BuildConfig | undefined] => [name, buildOf(service)])
      .filter((entry): entry is [string, BuildConfig] => entry[1] !== undefined)

  it('exist for every service that is built', () => {
    expect(built().length).toBeGreaterThanOrEqual(routedServices.length + 2)
    for (const [name, build] of built()) {
      const context = join(root, build.context ?? '.')
      const dockerfile = join(context, build.dockerfile ?? 'Dockerfile')
      expect(existsSync(dockerfile), `${name}: ${dockerfile}`).toBe(true)
    }
  })

  /** The connection pool's image: Debian's PgBouncer, not a Node process. */
  const POOLER = 'pgbouncer'

  it('end in a non-root node:24-slim stage with a healthcheck', () => {
    const files = new Set(
      built()
        .filter(([name]) => name !== POOLER)
        .map(([, build]) => join(root, build.context ?? '.', build.dockerfile ?? 'Dockerfile')),
    )
    expect(files.size).toBeGreaterThanOrEqual(2)
    for (const path of files) {
      const file = readDockerfile(readFileSync(path, 'utf8'))
      const chain = finalStageChain(file)
      expect(chain.at(-1)?.base, path).toMatch(/^node:24-slim(@sha256:[0-9a-f]{64})?$/)

      const user = lastInstruction(chain, 'USER')?.args.trim()
      expect(user, `${path}: USER`).toBeDefined()
      expect(['root', '0', '0:0', 'root:root']).not.toContain(user)

      const healthcheck = lastInstruction(chain, 'HEALTHCHECK')?.args.trim() ?? ''
      expect(healthcheck, `${path}: HEALTHCHECK`).toMatch(/\bCMD\b/)
      const execForm = healthcheck.slice(healthcheck.indexOf('CMD') + 3).trim()
      if (execForm.startsWith('[')) expect(() => JSON.parse(execForm) as unknown).not.toThrow()

      expect(lastInstruction(chain, 'EXPOSE'), `${path}: EXPOSE`).toBeDefined()
      expect(
        chain.some((stage) =>
          stage.instructions.some((i) => i.keyword === 'ENV' && /NODE_ENV=production/.test(i.args)),
        ),
        `${path}: NODE_ENV=production`,
      ).toBe(true)

      // Installs come from the lockfile and never run the root `prepare` script.
      const installs = file.stages
        .flatMap((stage) => stage.instructions)
        .filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args))
      expect(installs.length, `${path}: npm ci`).toBeGreaterThan(0)
      for (const install of installs) {
        expect(install.args).toMatch(/\bnpm ci\b/)
        expect(install.args).toContain('--ignore-scripts')
      }

      // The public base stays the default; a local base comes in as the BASE_IMAGE build arg.
      expect(file.globalArgs.BASE_IMAGE, `${path}: ARG BASE_IMAGE`).toMatch(/^node:24-slim/)

      // The install stage gets every workspace's manifest, or `npm ci` refuses the lockfile.
      const copied = file.stages
        .flatMap((stage) => stage.instructions)
        .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from'))
        .flatMap((i) => i.args.split(/\s+/).slice(0, -1))
      for (const manifest of workspaceManifests()) expect(copied, `${path}`).toContain(manifest)

      // COPY --parents is stable from Dockerfile syntax 1.20: the file must ask for a current one.
      const usesParents = file.stages.some((stage) =>
        stage.instructions.some((i) => i.keyword === 'COPY' && i.args.includes('--parents')),
      )
      if (usesParents) expect(file.directives).toContain('syntax=docker/dockerfile:1')
    }
  })

  it('build the connection pool from a Debian base, non-root, with a healthcheck on its port', () => {
    const build = built().find(([name]) => name === POOLER)?.[1]
    expect(build, 'a pgbouncer service built in docker-compose.yml').toBeDefined()
    const path = join(root, build?.context ?? '.', build?.dockerfile ?? 'Dockerfile')
    const file = readDockerfile(readFileSync(path, 'utf8'))
    const chain = finalStageChain(file)
    expect(file.globalArgs.DEBIAN_BASE, `${path}: ARG DEBIAN_BASE`).toMatch(/^debian:bookworm/)
    const user = lastInstruction(chain, 'USER')?.args.trim()
    expect(user, `${path}: USER`).toBeDefined()
    expect(user).not.toMatch(/^(root|0)(:|$)/)
    const port = lastInstruction(chain, 'EXPOSE')?.args.trim()
    expect(lastInstruction(chain, 'HEALTHCHECK')?.args, path).toContain(`-p ${port}`)
    // Every service reaches PostgreSQL through it, on that port, once it is healthy.
    for (const [name, service] of Object.entries(compose.services)) {
      const url = environmentOf(service).DATABASE_URL
      if (url === undefined) continue
      expect(String(url), name).toContain(`@${POOLER}:${port}/`)
      expect(dependenciesOf(service)[POOLER], name).toBe('service_healthy')
    }
  })

  it('get the sources they run through .dockerignore, and no local state or secrets', () => {
    const ignored = dockerignore(readFileSync(join(root, '.dockerignore'), 'utf8'))
    const workspaces = ['packages', 'services'].flatMap((dir) =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${dir}/${entry.name}`),
    )
    workspaces.push('gateway', 'frontend')
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.base.json',
      'packages/contracts/generated/openapi.json',
      ...workspaces.map((workspace) => `${workspace}/package.json`),
      ...workspaces.flatMap((workspace) =>
        ['src', 'generated', 'migrations', 'public'].flatMap((dir) =>
          filesUnder(`${workspace}/${dir}`, /^(node_modules|dist|test)$|\.test\.tsx?$/),
        ),
      ),
    ]
    expect(needed.length).toBeGreaterThan(workspaces.length * 2)
    for (const path of needed) expect(ignored(path), path).toBe(false)

    const kept = [
      '.env',
      '.env.production',
      '.git/HEAD',
      'data/postgres/PG_VERSION',
      'node_modules/fastify/package.json',
      'services/auth/node_modules/x/index.js',
      'frontend/dist/index.html',
      'gateway/test/app.test.ts',
      'frontend/src/app.test.tsx',
      'coverage/index.html',
    ]
    for (const path of kept) expect(ignored(path), path).toBe(true)
    expect(ignored('.env.example')).toBe(false)
  })

  it('are given every build argument they need, naming a real workspace', () => {
    for (const [name, build] of built()) {
      const path = join(root, build.context ?? '.', build.dockerfile ?? 'Dockerfile')
      const file = readDockerfile(readFileSync(path, 'utf8'))
      const declared = new Set(
        file.stages
          .flatMap((stage) => stage.instructions)
          .filter((i) => i.keyword === 'ARG')
          .map((i) => i.args.trim()),
      )
      const args = argsOf(build)
      // An ARG without a default must be passed by the compose service.
      for (const arg of declared) {
        if (!arg.includes('=')) expect(args[arg], `${name}: build arg ${arg}`).toBeTruthy()
      }
      if (args.SERVICE !== undefined) {
        expect(existsSync(join(root, 'services', args.SERVICE, 'package.json')), name).toBe(true)
      }
      if (args.PORT !== undefined && name !== 'ai-worker') {
        expect(String(environmentOf(compose.services[name] ?? {}).PORT), name).toBe(args.PORT)
      }
    }
  })
})
