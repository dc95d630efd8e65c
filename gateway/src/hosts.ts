// Which hosts the gateway answers, and which origins are its own: both from the configuration,
// never from the request. A page on a name the attacker controls can be re-pointed (DNS
// rebinding) at this machine; the browser then sends that name as Host and Origin.
import type { GatewayConfig } from './config.ts'

/** The names a browser on this machine uses; answered outside production only. */
const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]']

/**
 * Vite's dev server and its preview (`npm run dev -w frontend`, frontend/vite.config.ts): their
 * proxy passes the page's Host and Origin on, so outside production their loopback origins are
 * the app's own too.
 */
const FRONTEND_DEV_PORTS = [5173, 4173]

/** `name`, `name:port`, `[v6]` or `[v6]:port`; nothing else (no userinfo, path or spaces). */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i

/** The host name of a Host header's value, lower-cased; undefined when it is not one. */
export function hostnameOf(host: string | undefined): string | undefined {
  const name = host === undefined ? undefined : HOST.exec(host)?.[1]
  return name?.toLowerCase()
}

/** PUBLIC_URL's host, ALLOWED_ORIGINS' and ALLOWED_HOSTS; outside production the loopback names. */
export function allowedHostnames(config: GatewayConfig): Set<string> {
  const named = [config.PUBLIC_URL, ...config.ALLOWED_ORIGINS]
    .filter((url): url is string => Boolean(url))
    .map((url) => new URL(url).hostname)
  return new Set(
    [
      ...named,
      ...config.ALLOWED_HOSTS,
      ...(config.NODE_ENV === 'production' ? [] : LOOPBACK_HOSTNAMES),
    ].map((name) => name.toLowerCase()),
  )
}

/**
 * PUBLIC_URL's origin and ALLOWED_ORIGINS; outside production also the loopback origins of the
 * gateway's port and of the frontend's dev server. `addPort` adds the port the gateway turned out
 * to listen on (PORT=0).
 */
export function ownOrigins(config: GatewayConfig) {
  const origins = new Set(
    [config.PUBLIC_URL, ...config.ALLOWED_ORIGINS]
      .filter((url): url is string => Boolean(url))
      .map((url) => new URL(url).origin),
  )
  const addPort = (port: number) => {
    if (config.NODE_ENV === 'production' || port === 0) return
    for (const name of LOOPBACK_HOSTNAMES) origins.add(new URL(`http://${name}:${port}`).origin)
  }
  for (const port of [config.PORT, ...FRONTEND_DEV_PORTS]) addPort(port)
  return { has: (origin: string) => origins.has(origin), addPort }
}
