// `npm run test:deploy`: the production stack of docker-compose.yml, built from deploy/ and run
// in containers with Podman on this machine, then checked from outside as an operator would.
//
// It needs Debian's podman, podman-compose, runc and debootstrap (deploy/README.md, "The deploy
// test"). Registry images cannot be pulled where it runs, so every image starts from a local
// Debian base (debootstrap, kept in CRV_DEPLOY_CACHE between runs) with the Node the project pins,
// and deploy/local/compose.yml replaces PostgreSQL, Redis and MinIO with images built from
// Debian's packages and npm. Phases, each timed: tools, base images, app images, stack up and
// healthy, acceptance checks, non-root, a killed service comes back, speech workers scaled from
// one container to three under load, and always, also on failure, everything stopped and removed.
import { spawn, spawnSync } from 'node:child_process'
import type { SpawnSyncReturns } from 'node:child_process'
import { randomBytes, generateKeyPairSync } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'yaml'
import { render } from './lib/kustomize.ts'
import type { Resource } from './lib/kustomize.ts'
import { freePort } from './lib/ports.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const cacheDir =
  process.env.CRV_DEPLOY_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'crv-deploy')
const PROJECT = process.env.CRV_DEPLOY_PROJECT ?? 'crv-deploy-test'
const DEBIAN_IMAGE = 'localhost/crv-debian:bookworm-min'
const NODE_IMAGE = 'localhost/crv-node:24'
const PUBLIC_HOST = 'crv.deploy-test.invalid'
// Production accepts only valid numbers (not the fictional +1 555 ones of development); these are
// valid in form and in the range the US keeps for fiction (555-01xx).
const USER_PHONE = '+12025550123'
const ADMIN_PHONE = '+12025550124'
/** Words sent while the speech workers are scaled, per second, and the workers to scale to. */
const WORDS = Number(process.env.CRV_DEPLOY_WORDS ?? 80)
const RATE = Number(process.env.CRV_DEPLOY_WORDS_PER_SECOND ?? 8)
const WORKERS = 3

// ---- small helpers ----

const phases: [string, number][] = []
async function phase<T>(name: string, run: () => Promise<T> | T): Promise<T> {
  const started = performance.now()
  console.log(`\n== ${name}`)
  try {
    return await run()
  } finally {
    const seconds = (performance.now() - started) / 1000
    phases.push([name, seconds])
    console.log(`== ${name}: ${seconds.toFixed(1)} s`)
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** Runs a command; throws with its output when it fails unless `allowFail`. */
function run(
  command: string,
  args: string[],
  options: { allowFail?: boolean; quiet?: boolean; env?: NodeJS.ProcessEnv; input?: string } = {},
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    env: options.env ?? process.env,
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
  })
  if (result.error) throw result.error
  if (result.status !== 0 && !options.allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${String(result.status)}\n${result.stdout.slice(-4000)}${result.stderr.slice(-4000)}`,
    )
  }
  if (!options.quiet && result.status !== 0) process.stdout.write(result.stderr.slice(-2000))
  return result
}

/** Runs a long command with its output streamed (builds, debootstrap). */
function stream(command: string, args: string[], logFile?: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let tail = ''
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-6000)
      if (logFile) writeFileSync(logFile, chunk, { flag: 'a' })
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', fail)
    child.on('close', (code) =>
      code === 0
        ? done()
        : fail(
            new Error(`${command} ${args.slice(0, 6).join(' ')} … exited ${String(code)}\n${tail}`),
          ),
    )
  })
}

const podman = (args: string[], allowFail = false) =>
  run('podman', args, { allowFail, quiet: allowFail }).stdout.trim()

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check failed: ${what}`)
  console.log(`  ok  ${what}`)
}

// ---- Compose files: merged with Compose's rules (maps merge, lists and scalars replace) ----

type Yaml = Record<string, unknown>
const isMap = (value: unknown): value is Yaml =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function merge(base: unknown, over: unknown): unknown {
  if (!isMap(base) || !isMap(over)) return over === undefined ? base : over
  const out: Yaml = { ...base }
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value)
  return out
}

/** `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}` and `$$`, as Compose reads them. */
function interpolate(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(
    /\$\$|\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g,
    (whole, name?: string, op?: string, rest?: string) => {
      if (whole === '$$') return '$'
      const value = env[name ?? '']
      const unset = value === undefined || (op?.startsWith(':') === true && value === '')
      if (!unset) return value
      if (op?.endsWith('?')) throw new Error(`${name ?? ''}: ${rest ?? 'required'}`)
      return op ? (rest ?? '') : ''
    },
  )
}

interface Build {
  context: string
  dockerfile: string
  args: Record<string, string>
  image?: string
}

interface Service {
  image?: string
  build?: { context?: string; dockerfile?: string; args?: Record<string, unknown> }
  healthcheck?: { test?: unknown; disable?: boolean }
  depends_on?: string[] | Record<string, unknown>
  [key: string]: unknown
}

const shellQuote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`

const readYaml = (path: string): Yaml =>
  parse(readFileSync(join(root, path), 'utf8'), { merge: true }) as Yaml

/** What this test changes from production settings, and why (each is a documented variable). */
const testOverlay = {
  services: {
    gateway: {
      environment: {
        // The whole stack answers the one host the checks send (PUBLIC_URL's).
        RATE_LIMIT_MAX: '100000',
      },
    },
    auth: {
      environment: {
        // No SMS provider here: codes go to the auth log, where the checks read them.
        ALLOW_CONSOLE_SMS: 'true',
      },
    },
    ai: {
      environment: {
        // The scaling check queues WORDS words in one burst from one user.
        AI_RATE_LIMIT_USER: '100000',
        AI_RATE_LIMIT_IP: '100000',
        // A request waits for its word up to this long, then answers 503 speech_busy (the job
        // stays queued). 10 s by default; the burst here outlasts that on a loaded machine.
        SPEECH_TIMEOUT_MS: '120000',
      },
    },
    'ai-worker': {
      environment: {
        // One job at a time per worker, so that the queue outlasts the scaling and the jobs
        // have to spread over the workers to finish.
        AI_WORKER_CONCURRENCY: '1',
      },
    },
  },
}

function composeFile(): {
  services: Record<string, Service>
  yaml: string
  builds: Map<string, Build>
} {
  const full = merge(
    merge(readYaml('docker-compose.yml'), readYaml('deploy/local/compose.yml')),
    testOverlay,
  ) as Yaml
  // The anchors' fragments (x-*) are already merged in; `name` is given with -p instead.
  const merged = Object.fromEntries(
    Object.entries(full).filter(([key]) => !key.startsWith('x-') && key !== 'name'),
  ) as Yaml & { services: Record<string, Service> }
  const builds = new Map<string, Build>()
  for (const [name, service] of Object.entries(merged.services)) {
    // Compose's `disable: true` is `test: [NONE]`; podman-compose knows only the second.
    if (service.healthcheck?.disable === true) service.healthcheck = { test: ['NONE'] }
    // podman-compose 1.0 quotes an exec-form test wrongly when an argument holds a quote (the
    // JavaScript of the node checks): the same command, quoted here, through the image's shell.
    const test = service.healthcheck?.test
    if (service.healthcheck && Array.isArray(test) && test[0] === 'CMD')
      service.healthcheck.test = [
        'CMD-SHELL',
        test
          .slice(1)
          .map((a) => shellQuote(String(a)))
          .join(' '),
      ]
    if (!service.build) continue
    const context = resolve(root, service.build.context ?? '.')
    const build: Build = {
      context,
      dockerfile: resolve(context, service.build.dockerfile ?? 'Dockerfile'),
      args: Object.fromEntries(
        Object.entries(service.build.args ?? {}).map(([key, value]) => [
          key,
          interpolate(String(value ?? ''), process.env),
        ]),
      ),
    }
    const key = JSON.stringify(build)
    // One image per distinct build (ai and ai-worker share theirs); podman-compose only runs it.
    const image = builds.get(key)?.image ?? service.image ?? `localhost/${PROJECT}/${name}:latest`
    service.image = image
    builds.set(key, { ...build, image })
    service.build = { context, dockerfile: build.dockerfile }
  }
  // Names without DNS (see `addresses`): every container knows every named one's address.
  const hosts = [...addresses(Object.keys(merged.services))].map(([name, ip]) => `${name}:${ip}`)
  for (const service of Object.values(merged.services)) service.extra_hosts = hosts
  // YAML 1.1 quoting: podman-compose reads with PyYAML, to which a plain `yes` is true.
  return { services: merged.services, yaml: stringify(merged, { version: '1.1' }), builds }
}

/**
 * The stack's network, without Podman's DNS. In one clean-clone CI run, aardvark-dns (Podman
 * 4.3's resolver on the network) took 25 s to answer a lookup of `auth` from the descriptors
 * container and then said ENOTFOUND, and auth's connection to `postgres` timed out; a later
 * failure was the same. So the test makes the network itself, with the compose file's subnet
 * (podman-compose 1.0 would make one on its own subnet, ignoring `ipam`) and no DNS, starts each
 * service a container of which others call on a fixed address, and writes every such name into
 * every container's /etc/hosts (`extra_hosts`). The speech workers, which nobody calls, take any
 * free address. What production runs (docker compose, Kubernetes) keeps its own DNS.
 */
const NETWORK = `${PROJECT}_backend`
const UNNAMED = new Set(['ai-worker', 'minio-init'])

/**
 * Each called service's fixed address on the subnet: .200, .201, … in the compose file's order,
 * far above the addresses Podman hands out itself from .2 up (the one-shot and the workers).
 */
function addresses(services: readonly string[]): Map<string, string> {
  const subnet = process.env.BACKEND_SUBNET ?? '172.28.77.0/24'
  const prefix = subnet.split('/')[0]?.split('.').slice(0, 3).join('.') ?? ''
  return new Map(
    services.filter((s) => !UNNAMED.has(s)).map((s, i) => [s, `${prefix}.${200 + i}`] as const),
  )
}

/**
 * The services in an order that starts each after what it depends on. podman-compose 1.0 runs a
 * service's dependencies with it even with --no-deps, with the same `podman run` arguments (the
 * address too): started first, they are only found already there.
 */
function startOrder(services: Record<string, Service>): string[] {
  const order: string[] = []
  const visit = (name: string, path: string[]) => {
    if (order.includes(name)) return
    if (path.includes(name)) throw new Error(`depends_on cycle: ${[...path, name].join(' → ')}`)
    const needs = services[name]?.depends_on
    const deps = Array.isArray(needs) ? needs.map(String) : Object.keys(needs ?? {})
    for (const dep of deps) visit(dep, [...path, name])
    order.push(name)
  }
  for (const name of Object.keys(services)) visit(name, [])
  return order
}

function createNetwork(): void {
  podman([
    'network',
    'create',
    '--subnet',
    process.env.BACKEND_SUBNET ?? '172.28.77.0/24',
    '--disable-dns',
    '--label',
    `io.podman.compose.project=${PROJECT}`,
    '--label',
    `com.docker.compose.project=${PROJECT}`,
    NETWORK,
  ])
}

// ---- the phases ----

function checkTools(): void {
  const missing = ['podman', 'podman-compose', 'runc'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  )
  if (missing.length > 0)
    throw new Error(
      `missing: ${missing.join(', ')} (Debian: apt-get install -y podman podman-compose runc debootstrap uidmap slirp4netns fuse-overlayfs)`,
    )
  console.log(
    `  ${podman(['--version'])}; ${
      run('podman-compose', ['version'], { quiet: true })
        .stdout.split('\n')
        .find((l) => /podman-compose/.test(l)) ?? ''
    }`,
  )
}

/** Podman settings this machine needs (NOTES: crun fails on cgroups; setrlimit is refused). */
function containersConf(): void {
  if (process.env.CONTAINERS_CONF) return
  mkdirSync(cacheDir, { recursive: true })
  const path = join(cacheDir, 'containers.conf')
  writeFileSync(path, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n')
  process.env.CONTAINERS_CONF = path
}

/** The Debian mirror apt uses here (deb822 or one-line sources), else deb.debian.org. */
function debianMirror(): string {
  if (process.env.DEBIAN_MIRROR) return process.env.DEBIAN_MIRROR
  const files = ['/etc/apt/sources.list']
  if (existsSync('/etc/apt/sources.list.d'))
    files.push(
      ...readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f)),
    )
  for (const file of files) {
    if (!existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    const uri =
      /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\s/m.exec(text)?.[1]
    if (uri) return uri
  }
  return 'http://deb.debian.org/debian'
}

/** The Debian base: the image if Podman still has it, else the cached root, else debootstrap. */
async function debianBase(): Promise<void> {
  if (
    run('podman', ['image', 'exists', DEBIAN_IMAGE], { allowFail: true, quiet: true }).status === 0
  ) {
    console.log(`  ${DEBIAN_IMAGE}: present`)
    return
  }
  const tarball = join(cacheDir, 'debian-bookworm-minbase.tar')
  if (!existsSync(tarball)) {
    const rootfs = mkdtempSync(join(cacheDir, 'rootfs-'))
    try {
      const mirror = debianMirror()
      console.log(`  debootstrap --variant=minbase bookworm from ${mirror}`)
      await stream(
        'debootstrap',
        ['--variant=minbase', 'bookworm', rootfs, mirror],
        join(cacheDir, 'debootstrap.log'),
      )
      run('tar', ['-C', rootfs, '-cf', `${tarball}.part`, '.'])
      run('mv', [`${tarball}.part`, tarball])
    } finally {
      rmSync(rootfs, { recursive: true, force: true })
    }
  }
  run('sh', ['-c', `podman import - ${DEBIAN_IMAGE} < "$0"`, tarball])
  console.log(`  ${DEBIAN_IMAGE}: imported from ${tarball}`)
}

/** Where a build reaches the npm registry through a TLS-inspecting proxy: that proxy's CA. */
function buildCaArgs(): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS
  if (!ca || !existsSync(ca)) return []
  return [
    '-v',
    `${ca}:/run/crv-build-ca.crt:ro`,
    '--build-arg',
    'NODE_EXTRA_CA_CERTS=/run/crv-build-ca.crt',
  ]
}

async function build(
  image: string,
  dockerfile: string,
  context: string,
  args: Record<string, string>,
) {
  const started = performance.now()
  await stream(
    'podman',
    [
      'build',
      '--layers',
      // Docker's image format keeps the HEALTHCHECK; host networking reaches the registries.
      '--format',
      'docker',
      '--network',
      'host',
      ...buildCaArgs(),
      ...Object.entries(args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
      '-f',
      dockerfile,
      '-t',
      image,
      context,
    ],
    join(cacheDir, 'build.log'),
  )
  console.log(`  ${image}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** Node from the npm `node` package the project pins, on the Debian base. */
async function nodeBase(): Promise<void> {
  const require = createRequire(import.meta.url)
  const binary = join(dirname(require.resolve('node/package.json')), 'bin', 'node')
  const context = mkdtempSync(join(tmpdir(), 'crv-node-base-'))
  try {
    copyFileSync(binary, join(context, 'node'))
    await build(NODE_IMAGE, join(root, 'deploy/local/node.Dockerfile'), context, {
      DEBIAN_BASE: DEBIAN_IMAGE,
    })
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
}

// ---- HTTP through the published gateway, with the site's Host (production answers no other) ----

let gatewayPort = 0

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  text: string
}

function call(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; host?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json)
    const req = request(
      {
        host: '127.0.0.1',
        port: gatewayPort,
        method,
        path,
        timeout: options.timeoutMs ?? 30_000,
        headers: {
          host: options.host ?? PUBLIC_HOST,
          // Writes are accepted only from the site's own origin.
          ...(method === 'GET' ? {} : { origin: `https://${PUBLIC_HOST}` }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const all = Buffer.concat(chunks)
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: all,
            text: all.toString(),
          })
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)))
    req.on('error', fail)
    req.end(body)
  })
}

const json = (answer: Answer): unknown => JSON.parse(answer.text) as unknown

// ---- the stack ----

let composePath = ''
const containerName = (service: string, index = 1) => `${PROJECT}_${service}_${index}`

function compose(args: string[], env: NodeJS.ProcessEnv = {}): string {
  return run('podman-compose', ['-p', PROJECT, '-f', composePath, ...args], {
    env: { ...process.env, ...env },
    quiet: true,
  }).stdout
}

let fixedAddresses = new Map<string, string>()

/** Starts `services` one by one, each called one on its own fixed address (see `addresses`). */
function up(services: readonly string[]): void {
  for (const service of services) {
    const ip = fixedAddresses.get(service)
    const said = run(
      'podman-compose',
      [
        ...(ip ? [`--podman-run-args=--ip=${ip}`] : []),
        '-p',
        PROJECT,
        '-f',
        composePath,
        'up',
        '-d',
        '--no-build',
        '--no-deps',
        service,
      ],
      { quiet: true },
    )
    // podman-compose exits 0 when `podman run` fails: what it said is the only word of why.
    const state = inspect(containerName(service), '{{.State.Status}} {{.State.Error}}')
    if (!state.startsWith('running') && !state.startsWith('exited'))
      console.log(
        `  ${service} did not start (${state || 'no container'}):\n${said.stdout.slice(-1500)}${said.stderr.slice(-1500)}`,
      )
  }
}

const projectContainers = (all = true): string[] =>
  podman(
    [
      'ps',
      ...(all ? ['-a'] : []),
      '--filter',
      `label=io.podman.compose.project=${PROJECT}`,
      '--format',
      '{{.Names}}',
    ],
    true,
  )
    .split('\n')
    .filter(Boolean)

function inspect(container: string, format: string): string {
  return podman(['inspect', '--format', format, container], true)
}

/** Runs the container's healthcheck now (no systemd timers here to run it on its own). */
const healthy = (container: string): boolean =>
  run('podman', ['healthcheck', 'run', container], { allowFail: true, quiet: true }).status === 0

const hasHealthcheck = (container: string): boolean =>
  inspect(
    container,
    '{{if .Config.Healthcheck}}{{len .Config.Healthcheck.Test}}{{else}}0{{end}}',
  ) !== '0' && !inspect(container, '{{json .Config.Healthcheck.Test}}').includes('NONE')

async function waitHealthy(containers: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const waiting = new Set(containers)
  while (waiting.size > 0) {
    for (const container of [...waiting]) if (healthy(container)) waiting.delete(container)
    if (waiting.size === 0) break
    if (Date.now() > deadline)
      throw new Error(
        `not healthy after ${timeoutMs / 1000} s: ${[...waiting].join(', ')}\n${podman(['ps', '-a', '--format', '{{.Names}} {{.Status}}'], true)}\n${[...waiting].map((c) => `--- ${c}\n${podman(['logs', '--tail', '30', c], true)}`).join('\n')}`,
      )
    await sleep(2000)
  }
}

async function waitExited(container: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (inspect(container, '{{.State.Status}}') === 'exited')
      return Number(inspect(container, '{{.State.ExitCode}}'))
    await sleep(1000)
  }
  throw new Error(`${container} still running after ${timeoutMs / 1000} s`)
}

/** The sign-in code the console SMS provider wrote to the auth log for this phone. */
async function signIn(phone: string): Promise<string> {
  const start = await call('POST', '/api/auth/phone/start', { json: { phone } })
  if (start.status >= 300) throw new Error(`phone/start ${start.status} ${start.text}`)
  for (let attempt = 0; attempt < 20; attempt++) {
    const log = podman(['logs', '--tail', '200', containerName('auth')], true)
    const code = [...log.matchAll(/SMS to (\+\d+)\D[^\n]*?\b(\d{6})\b/g)]
      .filter((m) => m[1] === phone)
      .at(-1)?.[2]
    if (code) {
      const verify = await call('POST', '/api/auth/phone/verify', { json: { phone, code } })
      const token = (json(verify) as { accessToken?: string }).accessToken
      if (verify.status !== 200 || !token)
        throw new Error(`phone/verify ${verify.status} ${verify.text}`)
      return token
    }
    await sleep(500)
  }
  throw new Error(`no sign-in code for ${phone} in the auth log`)
}

/** Jobs done per worker container since `since` (each worker logs "job done" per job). */
function jobsPerWorker(since: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const container of projectContainers().filter((c) =>
    c.startsWith(`${PROJECT}_ai-worker_`),
  )) {
    const log = run('podman', ['logs', '--since', since, container], {
      allowFail: true,
      quiet: true,
    }).stdout
    counts.set(container, (log.match(/"msg":"job done"/g) ?? []).length)
  }
  return counts
}

/**
 * A signed-in call as a client makes it: a 503 `auth_unavailable` (the service could not fetch
 * the auth service's keys within its 3 s) is tried again, twice at most, 2 s apart. A CI run
 * met one on the first signed-in call to descriptors, 3.0 s after it began, with auth answering
 * the gateway at the same moment; what the descriptors container then sees of auth is printed.
 */
async function signedInCall(
  method: string,
  path: string,
  options: { token: string; json?: unknown },
): Promise<Answer> {
  let answer = await call(method, path, options)
  for (let retry = 0; retry < 2 && isAuthUnavailable(answer); retry++) {
    const probe = podman(
      [
        'exec',
        containerName('descriptors'),
        'node',
        '-e',
        "const t=performance.now();require('node:dns').lookup('auth',(e,a)=>{const d=performance.now();fetch('http://auth:8081/api/auth/jwks.json').then(r=>console.log('dns',a??e?.code,Math.round(d-t),'ms; jwks',r.status,Math.round(performance.now()-d),'ms'),x=>console.log('dns',a??e?.code,Math.round(d-t),'ms; jwks',x.cause?.code??x.message))})",
      ],
      true,
    )
    console.log(`  ..  ${method} ${path}: 503 auth_unavailable; from descriptors: ${probe}`)
    await sleep(2_000)
    answer = await call(method, path, options)
  }
  return answer
}

const isAuthUnavailable = (answer: Answer) =>
  answer.status === 503 && answer.text.includes('"auth_unavailable"')

async function acceptance(): Promise<void> {
  // Healthy containers are not yet a ready app: right after the last healthcheck passed, the
  // services' start-up work (the starter sets, the gestalt clips, the pictures' hashes) still
  // loaded both cores, and auth's and descriptors' readiness took over the gateway's 1.5 s in 2
  // of 3 runs. The app is ready when the gateway reports every service up; what it reported
  // meanwhile is printed.
  let health = await call('GET', '/api/health')
  const readyBy = Date.now() + 180_000
  while (health.status !== 200 && Date.now() < readyBy) {
    console.log(`  ..  not ready yet: ${health.status} ${health.text.slice(0, 300)}`)
    await sleep(2_000)
    health = await call('GET', '/api/health')
  }
  const services = ['auth', 'descriptors', 'media', 'ai', 'astro', 'practice']
  check(
    health.status === 200 && services.every((s) => health.text.includes(`"${s}"`)),
    `GET /api/health names every service: ${health.text.slice(0, 300)}`,
  )
  const page = await call('GET', '/')
  check(page.status === 200 && /<div id="root"|<html/i.test(page.text), 'the SPA is served at /')
  const deep = await call('GET', '/no/such/page')
  check(
    deep.status === 200 && /<html/i.test(deep.text),
    'an unknown page gets the SPA (client routing)',
  )
  const unknown = await call('GET', '/api/no-such-call')
  check(
    unknown.status === 404 && /"error"/.test(unknown.text) && /"code"/.test(unknown.text),
    `an unknown API path gets 404 with the error shape: ${unknown.text.slice(0, 120)}`,
  )
  const misdirected = await call('GET', '/api/health', { host: 'attacker.example' })
  check(
    misdirected.status === 421,
    `another Host gets 421 (production host check): ${misdirected.status}`,
  )

  const token = await signIn(USER_PHONE)
  check(token.split('.').length === 3, 'phone sign-in through the stack (code from the auth log)')
  const me = await call('GET', '/api/auth/me', { token })
  check(me.status === 200, `GET /api/auth/me signed in: ${me.status}`)
  const anonymousAdmin = await call('GET', '/api/admin/pending-descriptors')
  check(anonymousAdmin.status === 401, `an anonymous admin call gets 401: ${anonymousAdmin.status}`)
  const userAdmin = await signedInCall('GET', '/api/admin/pending-descriptors', { token })
  check(
    userAdmin.status === 403,
    `a user's admin call gets 403: ${userAdmin.status} ${userAdmin.text.slice(0, 200)}`,
  )
  const admin = await signIn(ADMIN_PHONE)
  const adminCall = await signedInCall('GET', '/api/admin/pending-descriptors', {
    token: admin,
  })
  check(adminCall.status === 200, `ADMIN_PHONES signs in an administrator: ${adminCall.status}`)

  const bulk = await call('GET', '/api/descriptors/bulk?language=en', { token })
  const count = ((json(bulk) as { systemDescriptors?: unknown[] }).systemDescriptors ?? []).length
  check(bulk.status === 200 && count >= 600, `descriptors seeded into PostgreSQL: ${count} in en`)
  const gestalts = await call('GET', '/api/gestalts?language=en')
  const gestaltId = (json(gestalts) as { id: number }[])[0]?.id
  const custom = await call('POST', '/api/descriptors', {
    token,
    json: { word: `deploy ${randomBytes(3).toString('hex')}`, language: 'en', gestaltId },
  })
  check(custom.status === 200 || custom.status === 201, `a custom word is stored: ${custom.status}`)

  const word = `harbour ${randomBytes(3).toString('hex')}`
  const first = await call('POST', '/api/ai/speech', {
    token,
    json: { word, language: 'en' },
    timeoutMs: 60_000,
  })
  check(
    first.status === 200 && first.headers['x-speech-cache'] === 'miss' && first.body.length > 1000,
    `speech through the queue and a worker: ${first.status}, ${first.body.length} bytes, ${String(first.headers['x-speech-cache'])}`,
  )
  const again = await call('POST', '/api/ai/speech', { token, json: { word, language: 'en' } })
  check(
    again.status === 200 &&
      again.headers['x-speech-cache'] === 'hit' &&
      again.body.equals(first.body),
    `the same word again comes from the S3 cache: ${String(again.headers['x-speech-cache'])}`,
  )
  const sidereal = await call('GET', '/api/sidereal-time/auto?lat=52.52&lng=13.405')
  check(sidereal.status === 200, `astro answers: ${sidereal.status}`)
}

/**
 * Every connection PostgreSQL holds comes from PgBouncer, and no more than its pool: the
 * services (migrations included) reach the server only through the pooler (docs/capacity.md).
 */
function throughThePool(): void {
  const pooler = fixedAddresses.get('pgbouncer')
  const clients = podman([
    'exec',
    containerName('postgres'),
    'psql',
    '-U',
    process.env.POSTGRES_USER ?? 'crv',
    '-d',
    process.env.POSTGRES_DB ?? 'crv',
    '-tAc',
    "SELECT coalesce(host(client_addr), 'socket') || ' ' || count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY client_addr",
  ])
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const [from = '', count = '0'] = clients[0]?.split(' ') ?? []
  // The compose file's pool size (its default when the environment names none).
  const poolSize = Number(process.env.PGBOUNCER_POOL_SIZE ?? 20)
  check(
    clients.length === 1 && from === pooler && Number(count) <= poolSize,
    `PostgreSQL's connections all come from PgBouncer (${String(pooler)}), at most its pool of ${poolSize}: ${clients.join('; ') || 'none'}`,
  )
}

function nonRoot(): void {
  for (const container of projectContainers()) {
    const running = inspect(container, '{{.State.Running}}') === 'true'
    const configured = inspect(container, '{{.Config.User}}')
    if (!running) {
      check(
        configured !== '' && !/^(root|0)(:|$)/.test(configured),
        `${container} (exited one-shot) is configured to run as ${configured}`,
      )
      continue
    }
    // Every process of the container, as the host sees it.
    const users = podman(['top', container, 'user'], true)
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean)
    check(
      users.length > 0 && users.every((user) => user !== 'root' && user !== '0'),
      `${container} runs as ${[...new Set(users)].join(', ')}`,
    )
  }
}

async function killedServiceComesBack(): Promise<void> {
  const container = containerName('descriptors')
  const before = inspect(container, '{{.State.StartedAt}}')
  const pid = inspect(container, '{{.State.Pid}}')
  // SIGKILL to the container's first process from outside, as a crash or the OOM killer would.
  run('kill', ['-KILL', pid])
  console.log(`  killed ${container} (host pid ${pid})`)
  const deadline = Date.now() + 90_000
  while (
    inspect(container, '{{.State.StartedAt}}') === before ||
    inspect(container, '{{.State.Running}}') !== 'true'
  ) {
    if (Date.now() > deadline) throw new Error(`${container} did not restart`)
    await sleep(500)
  }
  check(
    true,
    `${container} restarted by its restart policy (restarts: ${inspect(container, '{{.RestartCount}}')})`,
  )
  await waitHealthy([container], 90_000)
  const health = await call('GET', '/api/health')
  check(
    health.status === 200,
    `${container} healthy again and the gateway sees it: ${health.text.slice(0, 200)}`,
  )
  const bulk = await call('GET', '/api/gestalts?language=en')
  check(bulk.status === 200, `descriptors answers through the gateway again: ${bulk.status}`)
}

async function scaleWorkers(): Promise<void> {
  const token = await signIn(USER_PHONE)
  const before = projectContainers(false).filter((c) => c.includes('_ai-worker_'))
  check(before.length === 1, `one speech worker to start with: ${before.join(', ')}`)
  const since = new Date(Date.now() - 1000).toISOString()
  const tag = randomBytes(3).toString('hex')
  let done = 0
  let failed = 0
  let retried = 0
  // Words arrive at a steady RATE per second, faster than one worker doing one job at a time
  // speaks them, so the queue grows until the workers are scaled. (All at once, every request
  // would also ask the auth service about the token in the same instant.)
  const speaking = Promise.all(
    Array.from({ length: WORDS }, async (_, i) => {
      await sleep((i * 1000) / RATE)
      const say = () =>
        call('POST', '/api/ai/speech', {
          token,
          json: { word: `river ${tag} ${i}`, language: 'en' },
          timeoutMs: 120_000,
        })
      let answer = await say()
      // The gateway gives up on a slow answer (504) while the job stays queued; a client tries
      // again, as the error says, and gets the word once a worker has made it.
      for (let retry = 0; retry < 10 && (answer.status === 503 || answer.status === 504); retry++) {
        retried++
        await sleep(3000)
        answer = await say()
      }
      if (answer.status === 200) done++
      else {
        failed++
        if (failed <= 3) console.log(`  word ${i}: ${answer.status} ${answer.text.slice(0, 200)}`)
      }
    }),
  )
  await sleep(3000)
  console.log(`  ${WORDS} words at ${RATE}/s; ${done} done by one worker; scaling to ${WORKERS}`)
  // The ops job (deploy/README.md): scale the workers alone, nothing else is touched.
  compose(['up', '-d', '--no-build', '--no-deps', 'ai-worker'], {
    AI_WORKER_REPLICAS: String(WORKERS),
  })
  const scaledAt = done
  const after = projectContainers(false).filter((c) => c.includes('_ai-worker_'))
  check(after.length === WORKERS, `${WORKERS} speech workers running: ${after.join(', ')}`)
  await speaking
  check(
    failed === 0 && done === WORDS,
    `all ${WORDS} words spoken (${scaledAt} before the scaling; ${retried} tries again after a 503/504), ${failed} failed`,
  )
  const counts = jobsPerWorker(since)
  const line = [...counts].map(([c, n]) => `${c.replace(`${PROJECT}_`, '')}: ${n}`).join(', ')
  check(
    counts.size === WORKERS && [...counts.values()].every((n) => n > 0),
    `the jobs spread over the workers (${line})`,
  )
}

/** A Deployment's pod template, as far as this phase reads it. */
interface PodSpec {
  containers: {
    name: string
    image: string
    env?: { valueFrom?: { secretKeyRef?: { name: string; key: string } } }[]
  }[]
}

/**
 * What `podman kube play` can run of deploy/kubernetes (deploy/README.md): the base's
 * Deployments made into pods, one per replica, from the images built here, with their ConfigMap,
 * their Secrets and their security settings; not started, since the Services' names do not
 * resolve outside a cluster. What kube play ignores is counted by kind and printed.
 */
async function kubePlay(workDir: string): Promise<void> {
  const resources = render(join(root, 'deploy/kubernetes/base'))
  const deployments = resources.filter((r) => r.kind === 'Deployment')
  const played = resources.filter((r) => r.kind === 'Deployment' || r.kind === 'ConfigMap')
  const ignored = new Map<string, number>()
  for (const r of resources)
    if (!played.includes(r)) ignored.set(r.kind, (ignored.get(r.kind) ?? 0) + 1)
  const podOf = (r: Resource) =>
    (r as unknown as { spec: { replicas?: number; template: { spec: PodSpec } } }).spec
  const images = new Set<string>()
  const secrets = new Map<string, Set<string>>()
  for (const deployment of deployments)
    for (const container of podOf(deployment).template.spec.containers) {
      images.add(container.image)
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef
        if (ref) secrets.set(ref.name, (secrets.get(ref.name) ?? new Set()).add(ref.key))
      }
    }
  const manifest = join(workDir, 'kube-base.yaml')
  writeFileSync(manifest, played.map((r) => stringify(r)).join('---\n'))
  try {
    for (const image of images)
      podman(['tag', `localhost/${PROJECT}/${image.split('/').pop() ?? ''}:latest`, image])
    // Podman 4.3 reads a secretKeyRef from a Podman secret holding a JSON object of base64
    // values, not from a Kubernetes Secret document.
    for (const [name, keys] of secrets) {
      const file = join(workDir, `secret-${name}.json`)
      const values = Object.fromEntries(
        [...keys].map((key) => [key, Buffer.from(`kube-play-${key}`).toString('base64')]),
      )
      writeFileSync(file, JSON.stringify(values))
      podman(['secret', 'rm', name], true)
      podman(['secret', 'create', name, file])
    }
    podman(['kube', 'play', '--start=false', '--network', NETWORK, manifest])
    const pods = podman(['pod', 'ps', '--format', '{{.Name}}'])
      .split('\n')
      .filter((name) => deployments.some((d) => name.startsWith(`${d.metadata.name}-pod-`)))
    const replicas = deployments.reduce((sum, d) => sum + (podOf(d).replicas ?? 1), 0)
    check(
      pods.length === replicas,
      `kube play made ${pods.length} pods of the base's ${deployments.length} Deployments (${replicas} replicas), with ${secrets.size} Secrets and the ConfigMap; ignored: ${[...ignored].map(([kind, n]) => `${n} ${kind}`).join(', ')}`,
    )
    for (const deployment of deployments) {
      const name = deployment.metadata.name
      const container = podOf(deployment).template.spec.containers[0]?.name ?? name
      const [user, readOnly, dropped] = podman([
        'inspect',
        `${name}-pod-0-${container}`,
        '--format',
        '{{.Config.User}}|{{.HostConfig.ReadonlyRootfs}}|{{.HostConfig.CapDrop}}',
      ]).split('|')
      check(
        user !== '' &&
          user !== '0' &&
          user !== 'root' &&
          readOnly === 'true' &&
          /ALL|CAP_/.test(dropped ?? ''),
        `${name}-pod-0 is made as user ${user}, read-only root filesystem ${readOnly}, ${(dropped ?? '').split(' ').filter(Boolean).length} capabilities dropped`,
      )
    }
  } finally {
    podman(['kube', 'down', manifest], true)
    for (const name of secrets.keys()) podman(['secret', 'rm', name], true)
    for (const image of images) podman(['untag', image], true)
  }
}

async function teardown(): Promise<void> {
  if (composePath)
    run('podman-compose', ['-p', PROJECT, '-f', composePath, 'down', '-v'], {
      allowFail: true,
      quiet: true,
    })
  // Whatever podman-compose left (a scaled worker, a one-shot container, the network, volumes).
  const left = projectContainers()
  if (left.length > 0) podman(['rm', '-f', '-t', '5', ...left], true)
  const volumes = podman(
    [
      'volume',
      'ls',
      '--filter',
      `label=io.podman.compose.project=${PROJECT}`,
      '--format',
      '{{.Name}}',
    ],
    true,
  )
    .split('\n')
    .filter(Boolean)
  if (volumes.length > 0) podman(['volume', 'rm', '-f', ...volumes], true)
  podman(['network', 'rm', '-f', NETWORK], true)
  const remaining = projectContainers().length
  console.log(`  containers left: ${remaining}, volumes removed: ${volumes.length}`)
}

/**
 * `--images`: only the images, then stop (CI builds them while its tests run). `--built`: the
 * images a `--images` run left, built again only when one is missing.
 */
const IMAGES_ONLY = process.argv.includes('--images')
const BUILT = process.argv.includes('--built')

async function main(): Promise<void> {
  await phase('tools', () => {
    checkTools()
    containersConf()
  })
  // Secrets for this run only; nothing is written into the checkout.
  const { privateKey } = generateKeyPairSync('ed25519')
  Object.assign(process.env, {
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
    MINIO_ROOT_USER: 'crv-admin',
    MINIO_ROOT_PASSWORD: randomBytes(24).toString('hex'),
    S3_ACCESS_KEY_ID: 'crv-app',
    S3_SECRET_ACCESS_KEY: randomBytes(24).toString('hex'),
    AUTH_KEYS: JSON.stringify([{ ...privateKey.export({ format: 'jwk' }), kid: 'deploy-test' }]),
    PUBLIC_URL: `https://${PUBLIC_HOST}`,
    PRACTICE_TRIAL_KEY: randomBytes(32).toString('base64'),
    ADMIN_PHONES: ADMIN_PHONE,
    LOCAL_DEBIAN_IMAGE: DEBIAN_IMAGE,
    LOCAL_NODE_IMAGE: NODE_IMAGE,
    GATEWAY_BIND: '127.0.0.1',
    BACKEND_SUBNET: process.env.BACKEND_SUBNET ?? '172.28.77.0/24',
  })

  const present = (image: string) =>
    run('podman', ['image', 'exists', image], { allowFail: true, quiet: true }).status === 0
  const { yaml, builds, services } = composeFile()
  fixedAddresses = addresses(Object.keys(services))
  const prebuilt =
    BUILT &&
    [DEBIAN_IMAGE, NODE_IMAGE, ...[...builds.values()].map((b) => b.image ?? '')].every(present)
  if (!prebuilt)
    await phase('base images (Debian, Node)', async () => {
      mkdirSync(cacheDir, { recursive: true })
      // The builds' output of this run only (a failed build's tail is also in the error).
      writeFileSync(join(cacheDir, 'build.log'), '')
      await debianBase()
      await nodeBase()
    })

  if (!prebuilt)
    await phase('app images', async () => {
      for (const { context, dockerfile, args, image = '' } of builds.values())
        await build(image, dockerfile, context, args)
    })
  if (IMAGES_ONLY) return

  const workDir = mkdtempSync(join(tmpdir(), 'crv-deploy-'))

  try {
    gatewayPort = await freePort()
    process.env.GATEWAY_PORT = String(gatewayPort)
    composePath = join(workDir, 'compose.yml')
    writeFileSync(composePath, yaml)
    await teardown()
    createNetwork()

    await phase('stack up and healthy', async () => {
      // podman-compose starts in order but does not wait on conditions: the data first.
      up(['postgres', 'redis', 'minio'])
      await waitHealthy(
        ['postgres', 'redis', 'minio'].map((s) => containerName(s)),
        120_000,
      )
      up(['minio-init'])
      const code = await waitExited(containerName('minio-init'), 60_000)
      if (code !== 0) console.log(podman(['logs', containerName('minio-init')], true))
      check(code === 0, `minio-init made the bucket (exit ${code})`)
      // The services' database is PgBouncer: up and answering before they start.
      up(['pgbouncer'])
      await waitHealthy([containerName('pgbouncer')], 60_000)
      const started = new Set(['postgres', 'redis', 'minio', 'minio-init', 'pgbouncer'])
      up(startOrder(services).filter((s) => !started.has(s)))
      const all = projectContainers(false)
      const withChecks = all.filter(hasHealthcheck)
      // Generous: six services migrating at once on a loaded two-core machine took over 180 s.
      await waitHealthy(withChecks, Number(process.env.CRV_DEPLOY_HEALTHY_SECONDS ?? 420) * 1000)
      check(
        withChecks.length >= 10,
        `every healthcheck passes (${withChecks.length} containers): ${withChecks.map((c) => c.replace(`${PROJECT}_`, '')).join(', ')}`,
      )
      const noCheck = all.filter((c) => !withChecks.includes(c))
      check(
        noCheck.every((c) => c.includes('_ai-worker_')),
        `only the speech workers have no healthcheck: ${noCheck.join(', ')}`,
      )
    })
    await phase('acceptance checks', acceptance)
    await phase('PostgreSQL through PgBouncer', throughThePool)
    await phase('non-root', nonRoot)
    await phase('a killed service comes back', killedServiceComesBack)
    await phase(`speech workers 1 → ${WORKERS} under load`, scaleWorkers)
    await phase('deploy/kubernetes with podman kube play', () => kubePlay(workDir))
  } catch (err) {
    // What the containers said, before teardown removes them: a status alone rarely tells why.
    for (const container of projectContainers().filter((c) => !/postgres|redis|minio/.test(c)))
      console.log(`--- ${container}\n${podman(['logs', '--tail', '25', container], true)}`)
    throw err
  } finally {
    await phase('stop and remove everything', teardown)
    rmSync(workDir, { recursive: true, force: true })
    console.log('\nphase times:')
    for (const [name, seconds] of phases)
      console.log(`  ${name.padEnd(36)} ${seconds.toFixed(1).padStart(7)} s`)
    console.log(
      `  ${'total'.padEnd(36)} ${phases
        .reduce((a, [, s]) => a + s, 0)
        .toFixed(1)
        .padStart(7)} s`,
    )
  }
}

// Ctrl-C still tears the stack down.
process.on('SIGINT', () => {
  void teardown().finally(() => process.exit(130))
})

main().then(
  () => console.log(IMAGES_ONLY ? '\ntest:deploy: the images are built' : '\ntest:deploy passed'),
  (err: unknown) => {
    console.error(`\ntest:deploy FAILED: ${err instanceof Error ? err.message : String(err)}`)
    process.exitCode = 1
  },
)
