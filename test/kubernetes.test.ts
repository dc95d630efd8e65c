// The Kubernetes manifests under deploy/kubernetes: every object of the base and of the
// production overlay validated against the Kubernetes (and KEDA) schemas of kubernetes-models,
// then what a schema cannot see: selectors, ports, probes, references to Secrets and ConfigMaps,
// autoscaling targets, and each process's own configuration loaded from what its pod is given.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Deployment } from 'kubernetes-models/apps/v1/Deployment'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { Namespace } from 'kubernetes-models/v1/Namespace'
import { Secret } from 'kubernetes-models/v1/Secret'
import { Service } from 'kubernetes-models/v1/Service'
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget'
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject'
import { createApp } from '@crv/kit'
import gatewayApp from '../gateway/src/app.ts'
import { SERVICES as routedServices, loadGatewayConfig } from '../gateway/src/config.ts'
import { loadAiConfig } from '../services/ai/src/config.ts'
import { loadAstroConfig } from '../services/astro/src/config.ts'
import { loadAuthConfig } from '../services/auth/src/config.ts'
import { loadDescriptorsConfig } from '../services/descriptors/src/config.ts'
import { loadMediaConfig } from '../services/media/src/config.ts'
import { loadPracticeConfig } from '../services/practice/src/config.ts'
import { SERVICE_NODE_FLAGS, serviceNodeFlags } from '../scripts/lib/node-flags.ts'
import { render, type Resource } from '../scripts/lib/kustomize.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const base = join(root, 'deploy/kubernetes/base')
const production = join(root, 'deploy/kubernetes/production')
// The overlay's Secrets come from env files that are never committed; their examples stand in.
const readExample = (path: string) => readFileSync(`${path}.example`, 'utf8')

type Validatable = { validate(): void }
const MODELS: Record<string, new (data: never) => Validatable> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
}

/** Throws with the schema's message when an object is not valid for its kind. */
function validate(resource: Resource): void {
  const Model = MODELS[`${resource.apiVersion}/${resource.kind}`]
  if (!Model) throw new Error(`no schema for ${resource.apiVersion} ${resource.kind}`)
  new Model(resource as never).validate()
}

type EnvVar = {
  name: string
  value?: string
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean }
    configMapKeyRef?: { name: string; key: string; optional?: boolean }
  }
}
type Probe = { httpGet?: { path: string; port: string | number } }
type Container = {
  name: string
  image: string
  command?: string[]
  ports?: { name?: string; containerPort: number }[]
  env?: EnvVar[]
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[]
  startupProbe?: Probe
  readinessProbe?: Probe
  livenessProbe?: Probe
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
  securityContext?: {
    readOnlyRootFilesystem?: boolean
    allowPrivilegeEscalation?: boolean
    capabilities?: { drop?: string[] }
  }
}
type DeploymentSpec = {
  replicas?: number
  selector: { matchLabels: Record<string, string> }
  template: {
    metadata: { labels: Record<string, string> }
    spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean } }
  }
}

const specOf = (d: Resource) => d.spec as DeploymentSpec
const containerOf = (d: Resource) => {
  const [container] = specOf(d).template.spec.containers
  if (!container) throw new Error(`${d.metadata.name} has no container`)
  return container
}
const find = (all: Resource[], kind: string, name: string) =>
  all.find((r) => r.kind === kind && r.metadata.name === name)
const byKind = (all: Resource[], kind: string) => all.filter((r) => r.kind === kind)

/** The Secrets the base leaves to an overlay to generate (values unknown there). */
const OVERLAY_SECRETS = new Set(['crv-data', 'crv-auth', 'crv-practice', 'crv-database'])

/**
 * The environment a container starts with, from its ConfigMaps, Secrets and own values. With
 * `outside`, those Secrets are taken to exist without being read.
 */
function environmentOf(
  all: Resource[],
  container: Container,
  outside = new Set<string>(),
): Record<string, string> {
  const env: Record<string, string> = {}
  const dataOf = (kind: string, name: string): Record<string, string> | undefined => {
    const found = find(all, kind, name)
    if (!found && kind === 'Secret' && outside.has(name)) return undefined
    if (!found) throw new Error(`${container.name} refers to a ${kind} ${name} that is not there`)
    const data = (found.data ?? {}) as Record<string, string>
    return kind === 'Secret'
      ? Object.fromEntries(
          Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
        )
      : data
  }
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, dataOf('ConfigMap', from.configMapRef.name))
    if (from.secretRef) Object.assign(env, dataOf('Secret', from.secretRef.name))
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef
    if (!ref) continue
    const data = dataOf(variable.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name)
    if (!data) continue
    const value = data[ref.key]
    if (value !== undefined) env[variable.name] = value
    else if (!ref.optional)
      throw new Error(`${container.name}: ${variable.name} needs key ${ref.key} of ${ref.name}`)
  }
  return env
}

/** What a schema cannot check; returns the problems found, empty when there are none. */
function problemsOf(all: Resource[], outside = new Set<string>()): string[] {
  const problems: string[] = []
  const deployments = byKind(all, 'Deployment')
  for (const d of deployments) {
    const name = d.metadata.name
    const spec = specOf(d)
    const labels = spec.template.metadata.labels
    for (const [k, v] of Object.entries(spec.selector.matchLabels)) {
      if (labels[k] !== v) problems.push(`${name}: the selector does not match its pods`)
    }
    if (spec.template.spec.securityContext?.runAsNonRoot !== true)
      problems.push(`${name}: may run as root`)
    const container = containerOf(d)
    const sc = container.securityContext
    if (sc?.readOnlyRootFilesystem !== true || sc.allowPrivilegeEscalation !== false)
      problems.push(`${name}: writable root or privilege escalation`)
    if (!sc?.capabilities?.drop?.includes('ALL')) problems.push(`${name}: keeps capabilities`)
    const requests = container.resources?.requests ?? {}
    if (!requests.cpu || !requests.memory || !container.resources?.limits?.memory)
      problems.push(`${name}: no cpu and memory requests or no memory limit`)
    const ports = new Map((container.ports ?? []).map((p) => [p.name, p.containerPort]))
    for (const [kind, probe] of [
      ['startup', container.startupProbe],
      ['readiness', container.readinessProbe],
      ['liveness', container.livenessProbe],
    ] as const) {
      const port = probe?.httpGet?.port
      if (port === undefined) continue
      if (typeof port === 'string' ? !ports.has(port) : ![...ports.values()].includes(port))
        problems.push(`${name}: the ${kind} probe asks port ${port}, which the pod does not open`)
    }
    try {
      environmentOf(all, container, outside)
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  for (const s of byKind(all, 'Service')) {
    const spec = s.spec as {
      selector: Record<string, string>
      ports: { port: number; targetPort: string | number }[]
    }
    const selected = deployments.filter((d) =>
      Object.entries(spec.selector).every(([k, v]) => specOf(d).template.metadata.labels[k] === v),
    )
    const [target] = selected
    if (selected.length !== 1 || !target) {
      problems.push(`Service ${s.metadata.name} selects ${selected.length} Deployments`)
      continue
    }
    const ports = containerOf(target).ports ?? []
    for (const port of spec.ports) {
      if (!ports.some((p) => p.name === port.targetPort || p.containerPort === port.targetPort))
        problems.push(`Service ${s.metadata.name}: target port ${port.targetPort} is not open`)
    }
  }
  for (const kind of ['HorizontalPodAutoscaler', 'ScaledObject']) {
    for (const r of byKind(all, kind)) {
      const target = (r.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name
      if (!find(all, 'Deployment', target))
        problems.push(`${kind} ${r.metadata.name}: no ${target}`)
    }
  }
  for (const r of byKind(all, 'PodDisruptionBudget')) {
    const match = (r.spec as { selector: { matchLabels: Record<string, string> } }).selector
      .matchLabels
    const covered = deployments.filter((d) =>
      Object.entries(match).every(([k, v]) => specOf(d).template.metadata.labels[k] === v),
    )
    if (covered.length !== 1) problems.push(`PDB ${r.metadata.name} covers ${covered.length}`)
  }
  return problems
}

const rendered = {
  base: () => render(base),
  production: () => render(production, { readEnvFile: readExample }),
}

describe.each(Object.entries(rendered))('deploy/kubernetes/%s', (tree, load) => {
  const all = load()

  it('holds only objects valid against the Kubernetes and KEDA schemas', () => {
    expect(all.length).toBeGreaterThan(30)
    for (const resource of all) {
      expect(() => validate(resource), `${resource.kind} ${resource.metadata.name}`).not.toThrow()
    }
  })

  it('wires selectors, ports, probes, references and scaling targets together', () => {
    expect(problemsOf(all, tree === 'base' ? OVERLAY_SECRETS : undefined)).toEqual([])
  })

  it('runs the gateway, every routed service with a Service, a PDB and an HPA, and the workers', () => {
    for (const name of ['gateway', ...routedServices]) {
      expect(find(all, 'Deployment', name), name).toBeDefined()
      expect(find(all, 'Service', name), name).toBeDefined()
      expect(find(all, 'PodDisruptionBudget', name), name).toBeDefined()
      const hpa = find(all, 'HorizontalPodAutoscaler', name)
      expect((hpa?.spec as { minReplicas: number }).minReplicas, name).toBeGreaterThanOrEqual(2)
      const probe = containerOf(find(all, 'Deployment', name) as Resource).livenessProbe
      expect(probe?.httpGet?.path, name).toBe('/health')
    }
    const worker = find(all, 'Deployment', 'ai-worker') as Resource
    expect(containerOf(worker).command).toEqual(['node', 'src/worker.ts'])
    expect(containerOf(worker).image).toBe(
      containerOf(find(all, 'Deployment', 'ai') as Resource).image,
    )
    expect(find(all, 'PodDisruptionBudget', 'ai-worker')).toBeDefined()
    expect(find(all, 'HorizontalPodAutoscaler', 'ai-worker')).toBeUndefined()
  })

  it('runs each service with the V8 flags the launcher gives it (the image’s when it names none)', () => {
    for (const name of routedServices) {
      const { command } = containerOf(find(all, 'Deployment', name) as Resource)
      const flags = serviceNodeFlags(name)
      if (command) expect(command, name).toEqual(['node', ...flags, 'src/server.ts'])
      else expect(flags, name).toEqual(SERVICE_NODE_FLAGS)
    }
  })

  if (tree === 'base') return

  it("points the gateway at each routed service's Service and port", () => {
    const gateway = find(all, 'Deployment', 'gateway') as Resource
    const config = loadGatewayConfig(environmentOf(all, containerOf(gateway)))
    for (const name of routedServices) {
      const url = new URL(config[`${name.toUpperCase()}_URL` as 'AUTH_URL'])
      const service = find(all, 'Service', url.hostname)
      expect(service?.metadata.name, name).toBe(name)
      const ports = (service?.spec as { ports: { port: number }[] }).ports.map((p) => p.port)
      expect(ports, name).toContain(Number(url.port))
      const pod = containerOf(find(all, 'Deployment', name) as Resource)
      expect(environmentOf(all, pod).PORT, name).toBe(url.port)
    }
  })

  it('starts every process with a configuration it accepts in production', () => {
    const loaders: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
      gateway: loadGatewayConfig,
      auth: loadAuthConfig,
      descriptors: loadDescriptorsConfig,
      media: loadMediaConfig,
      ai: loadAiConfig,
      'ai-worker': loadAiConfig,
      astro: loadAstroConfig,
      practice: loadPracticeConfig,
    }
    // The connection pool is Debian's PgBouncer, not a Node process: its settings are checked
    // below, and its container by the deploy test (kube play and the compose stack).
    for (const d of byKind(all, 'Deployment').filter((d) => d.metadata.name !== 'pgbouncer')) {
      const load = loaders[d.metadata.name]
      expect(load, d.metadata.name).toBeDefined()
      const env = environmentOf(all, containerOf(d))
      expect(env.NODE_ENV, d.metadata.name).toBe('production')
      expect(() => load?.(env), d.metadata.name).not.toThrow()
    }
    // PostgreSQL through the pool, and the pool to the managed server over TLS.
    const pooler = environmentOf(all, containerOf(find(all, 'Deployment', 'pgbouncer') as Resource))
    expect(pooler).toMatchObject({
      POSTGRES_HOST: expect.any(String),
      POSTGRES_PASSWORD: expect.any(String),
      PGBOUNCER_SERVER_TLS_SSLMODE: 'require',
    })
    // Data where the service keeps data: nothing falls back to a disk the pod does not have.
    for (const name of ['auth', 'descriptors', 'media', 'ai', 'ai-worker', 'practice']) {
      const env = environmentOf(all, containerOf(find(all, 'Deployment', name) as Resource))
      expect(env, name).toMatchObject({
        DATABASE_URL: expect.stringMatching(/^postgres:\/\/[^@]+@pgbouncer:6432\//),
        REDIS_URL: expect.stringMatching(/^rediss?:/),
        S3_BUCKET: expect.any(String),
      })
    }
  })

  it("answers the gateway's probes whatever Host the kubelet sends, and the app only at the ingress's host", async () => {
    const gateway = containerOf(find(all, 'Deployment', 'gateway') as Resource)
    const env: Record<string, string> = {
      ...environmentOf(all, gateway, OVERLAY_SECRETS),
      LOG_LEVEL: 'silent',
    }
    delete env.REDIS_URL
    const config = loadGatewayConfig(env)
    const app = createApp(config)
    await app.register(gatewayApp, { config })
    const podAddress = '10.244.1.17:8080'
    const probes = [gateway.startupProbe, gateway.readinessProbe, gateway.livenessProbe]
    for (const path of probes.map((p) => p?.httpGet?.path ?? '')) {
      const res = await app.inject({ method: 'GET', url: path, headers: { host: podAddress } })
      expect(res.statusCode, path).toBe(200)
    }
    const ingress = find(all, 'Ingress', 'gateway')?.spec as { rules: { host: string }[] }
    const at = async (host: string) =>
      (await app.inject({ method: 'GET', url: '/api/no-such-call', headers: { host } })).statusCode
    for (const { host } of ingress?.rules ?? [{ host: new URL(env.PUBLIC_URL ?? '').host }])
      expect(await at(host), host).toBe(404)
    expect(await at(podAddress)).toBe(421)
    await app.close()
  })

  it('scales the speech workers with KEDA on the queue wait list, read from the worker pod', () => {
    const scaled = find(all, 'ScaledObject', 'ai-worker') as Resource
    const [trigger] = (
      scaled.spec as { triggers: { type: string; metadata: Record<string, string> }[] }
    ).triggers
    expect(trigger?.type).toBe('redis')
    const env = environmentOf(all, containerOf(find(all, 'Deployment', 'ai-worker') as Resource))
    const queue = loadAiConfig(env).SPEECH_QUEUE
    expect(trigger?.metadata.listName).toBe(`bull:${queue}:wait`)
    expect(Number(trigger?.metadata.listLength)).toBeGreaterThan(0)
    const address = env[trigger?.metadata.addressFromEnv ?? '']
    expect(address).toMatch(/^[^:/]+:\d+$/)
    expect(new URL(env.REDIS_URL ?? '').host).toBe(address)
  })

  it('pins every image to a registry and tag, in one namespace, behind an HTTPS ingress', () => {
    for (const d of byKind(all, 'Deployment')) {
      expect(containerOf(d).image).toMatch(/^registry\.example\.org\/crv-training\/[a-z-]+:\d/)
    }
    for (const r of all) {
      if (r.kind !== 'Namespace') expect(r.metadata.namespace, r.kind).toBe('crv-training')
    }
    const ingress = find(all, 'Ingress', 'gateway')?.spec as {
      tls: { hosts: string[] }[]
      rules: { host: string }[]
    }
    const config = find(all, 'ConfigMap', 'crv-config')?.data as Record<string, string>
    const host = new URL(config.PUBLIC_URL ?? '').hostname
    expect(ingress.rules.map((r) => r.host)).toEqual([host])
    expect(ingress.tls[0]?.hosts).toEqual([host])
    expect(config.PUBLIC_URL).toMatch(/^https:/)
  })
})

describe('the checks themselves', () => {
  it('fail on a probe that asks a port the pod does not open', () => {
    const all = rendered.production()
    const auth = containerOf(find(all, 'Deployment', 'auth') as Resource)
    auth.readinessProbe = { httpGet: { path: '/ready', port: 'metrics' } }
    expect(problemsOf(all)).toEqual([
      'auth: the readiness probe asks port metrics, which the pod does not open',
    ])
  })

  it('fail on a Secret key that is not there', () => {
    const all = rendered.production()
    const media = containerOf(find(all, 'Deployment', 'media') as Resource)
    media.env?.push({
      name: 'S3_ENDPOINT',
      valueFrom: { secretKeyRef: { name: 'crv-data', key: 'S3_ENDPOINT' } },
    })
    expect(problemsOf(all)).toEqual(['media: S3_ENDPOINT needs key S3_ENDPOINT of crv-data'])
  })

  it('fail the schema on a wrong type and on a value outside its enum', () => {
    const all = rendered.base()
    const deployment = find(all, 'Deployment', 'astro') as Resource
    ;(deployment.spec as { replicas: unknown }).replicas = 'two'
    expect(() => validate(deployment)).toThrow(/replicas/)
    const service = structuredClone(find(all, 'Service', 'astro') as Resource)
    const [port] = (service.spec as { ports: { protocol: string }[] }).ports
    if (port) port.protocol = 'HTTP'
    expect(() => validate(service)).toThrow(/protocol/)
  })

  it('refuse a kustomization field the renderer does not apply', () => {
    expect(() => render(join(root, 'test/fixtures/kustomize-unknown-field'))).toThrow(
      /field commonLabels is not rendered/,
    )
  })
})
