// A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for tests, and a small browser
// (cookie jar + manual redirects) that signs in through its development login and consent forms.
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import Provider from 'oidc-provider'

export interface TestAccountClaims {
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  picture?: string
}

export interface TestProviderOptions {
  clientId: string
  clientSecret: string
  redirectUri: string
  /** Claims by login name; any other login is an account with a generic profile. */
  accounts: Record<string, TestAccountClaims>
  /** Put the profile claims in the ID token (default) or, as the spec says, only in UserInfo. */
  claimsInIdToken?: boolean
  /** The client's (and the provider's only) token endpoint authentication method. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post'
}

export interface TestProvider {
  issuer: string
  close(): Promise<void>
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  let handler = (_req: IncomingMessage, res: ServerResponse) => {
    res.statusCode = 503
    res.end()
  }
  const server = createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: 'test-rs256',
    use: 'sig',
    alg: 'RS256',
  }
  const authMethod = options.tokenEndpointAuthMethod ?? 'client_secret_basic'

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: authMethod,
      },
    ],
    clientAuthMethods: [authMethod],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'picture'],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    jwks: { keys: [signingKey] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({
        sub,
        ...(options.accounts[sub] ?? {
          email: `${sub}@example.test`,
          email_verified: true,
          name: `Test ${sub}`,
          given_name: 'Test',
        }),
      }),
    }),
  })
  const callback = provider.callback()
  handler = (req, res) => callback(req, res)

  return {
    issuer,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

interface Cookie {
  name: string
  value: string
  host: string
  path: string
  httpOnly: boolean
}

const pathMatches = (path: string, cookiePath: string) =>
  path === cookiePath ||
  (path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/'))

/** Cookies by host (like a browser: ports share them) and path; redirects are not followed. */
export class TestBrowser {
  private cookies: Cookie[] = []

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url)
    const headers = new Headers(init.headers)
    const cookie = this.cookies
      .filter((c) => c.host === target.hostname && pathMatches(target.pathname, c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
    if (cookie) headers.set('cookie', cookie)
    const res = await fetch(target, { ...init, headers, redirect: 'manual' })
    for (const line of res.headers.getSetCookie()) this.store(target, line)
    return res
  }

  cookie(name: string): Cookie | undefined {
    return this.cookies.find((c) => c.name === name)
  }

  private store(from: URL, line: string) {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
    const eq = pair.indexOf('=')
    const name = pair.slice(0, eq)
    const value = pair.slice(eq + 1)
    const attr = new Map(
      attributes.map((a) => {
        const i = a.indexOf('=')
        return i < 0 ? [a.toLowerCase(), ''] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)]
      }),
    )
    const path = attr.get('path') || from.pathname.replace(/\/[^/]*$/, '') || '/'
    this.cookies = this.cookies.filter(
      (c) => !(c.name === name && c.host === from.hostname && c.path === path),
    )
    const maxAge = attr.get('max-age')
    const expires = attr.get('expires')
    const gone =
      (maxAge !== undefined && Number(maxAge) <= 0) ||
      (expires !== undefined && Date.parse(expires) <= Date.now())
    if (!gone) {
      this.cookies.push({
        name,
        value,
        host: from.hostname,
        path,
        httpOnly: attr.has('httponly'),
      })
    }
  }
}

export type ProviderAction = { login: string } | 'cancel'

/**
 * Follows the sign-in from the app's start URL through the provider's login and consent pages
 * (or cancels at the login page) up to the redirect to the app's callback, and returns that
 * callback URL without requesting it.
 */
export async function reachCallback(
  browser: TestBrowser,
  startUrl: string,
  callbackUrl: string,
  action: ProviderAction,
): Promise<string> {
  let url = startUrl
  let res = await browser.fetch(url)
  for (let step = 0; step < 20; step++) {
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location') ?? '', url).href
      if (next.startsWith(`${callbackUrl}?`)) return next
      url = next
      res = await browser.fetch(url)
      continue
    }
    const html = await res.text()
    const form = /action="([^"]+)"/.exec(html)?.[1]
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1]
    if (res.status !== 200 || !form || !prompt) {
      throw new Error(`Unexpected ${res.status} at ${url}: ${html.slice(0, 300)}`)
    }
    const submit = new URL(form.replaceAll('&amp;', '&'), url).href
    if (action === 'cancel') {
      url = `${submit}/abort`
      res = await browser.fetch(url)
      continue
    }
    const fields: Record<string, string> =
      prompt === 'login' ? { prompt, login: action.login, password: 'any' } : { prompt }
    url = submit
    res = await browser.fetch(submit, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
  }
  throw new Error(`No callback after 20 steps (last: ${url})`)
}

/** The result the callback page carries in `<body data-result='…'>`. */
export function pageResult(html: string): unknown {
  const raw = /<body data-result='([^']*)'>/.exec(html)?.[1]
  if (raw === undefined) throw new Error(`Not the callback page: ${html.slice(0, 200)}`)
  return JSON.parse(
    raw.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
  )
}
