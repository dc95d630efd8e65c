import { createHash, createHmac, randomUUID } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose'
import type { CryptoKey, JWK } from 'jose'
import { ConfigError } from '@crv/kit'

export interface SigningKeys {
  /** Public keys for the JWKS, every configured key (old ones keep verifying while they rotate out). */
  jwks: { keys: JWK[] }
  sign(
    claims: { sub: string; role: string; name: string; sid?: string },
    ttlSeconds: number,
  ): Promise<string>
  /** A secret for keyed hashes (phone codes), derived from the active signing key. */
  hmac(value: string): string
}

interface PrivateJwk extends JWK {
  kid: string
  d: string
}

async function generated(file: string): Promise<PrivateJwk[]> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as PrivateJwk[]
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  const key = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'EdDSA' } as PrivateJwk
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, JSON.stringify([key]), { mode: 0o600 })
  await chmod(file, 0o600)
  return [key]
}

function parse(text: string): PrivateJwk[] {
  let keys: unknown
  try {
    keys = JSON.parse(text)
  } catch {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_KEYS: not JSON (expected an array of Ed25519 private JWKs)',
    )
  }
  const list = Array.isArray(keys) ? keys : [keys]
  if (
    list.length === 0 ||
    !list.every(
      (k: JWK) =>
        k &&
        k.kty === 'OKP' &&
        k.crv === 'Ed25519' &&
        typeof k.d === 'string' &&
        typeof k.kid === 'string',
    )
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  AUTH_KEYS: every key must be an Ed25519 private JWK with a kid',
    )
  }
  return list as PrivateJwk[]
}

/**
 * The signing keys: AUTH_KEYS when set (production, several replicas), otherwise one key
 * generated on first start into DATA_DIR and reused after.
 */
export async function loadSigningKeys(config: {
  AUTH_KEYS?: string | undefined
  DATA_DIR: string
  AUTH_ISSUER: string
  AUTH_AUDIENCE: string
}): Promise<SigningKeys> {
  const keys = config.AUTH_KEYS
    ? parse(config.AUTH_KEYS)
    : await generated(join(config.DATA_DIR, 'auth', 'signing-keys.json'))
  const active = keys[0] as PrivateJwk
  const privateKey = (await importJWK(active, 'EdDSA')) as CryptoKey
  const secret = createHash('sha256').update(`crv-phone-codes:${active.d}`).digest()
  return {
    jwks: {
      keys: keys.map(({ kty, crv, x, kid }) => ({ kty, crv, x, kid, alg: 'EdDSA', use: 'sig' })),
    },
    sign: (claims, ttlSeconds) =>
      new SignJWT({
        role: claims.role,
        name: claims.name,
        ...(claims.sid ? { sid: claims.sid } : {}),
      })
        .setProtectedHeader({ alg: 'EdDSA', kid: active.kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(config.AUTH_ISSUER)
        .setAudience(config.AUTH_AUDIENCE)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(privateKey),
    hmac: (value) => createHmac('sha256', secret).update(value).digest('base64url'),
  }
}
