// The cryptography of a practice session: the target reference number, the commitment published
// at the start, the write-up's hash at the lock, and the sealed token of a visitor's trial.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '@crv/kit'

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

/** Two groups of four random digits, as in the CRV literature; never derived from the target. */
export const newTrn = () =>
  `${String(randomInt(0, 10_000)).padStart(4, '0')}-${String(randomInt(0, 10_000)).padStart(4, '0')}`

export const newNonce = () => randomBytes(32).toString('hex')

/** SHA-256 of `targetId|imageSha256|nonce`: published at the start, checkable at the reveal. */
export const commitmentOf = (targetId: string, imageSha256: string, nonce: string) =>
  sha256Hex(`${targetId}|${imageSha256}|${nonce}`)

/** The write-up's hash input: one canonical JSON, the one receipts are checked with offline. */
export { canonicalJson } from '@crv/contracts/practice-receipt'

/** A shuffle with the CSPRNG (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1)
    const a = out[i] as T
    out[i] = out[j] as T
    out[j] = a
  }
  return out
}

/** The trial key: from the environment, or generated once into the data directory. */
export function trialKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = Buffer.from(configured, 'base64')
    if (key.length !== 32) throw new Error('PRACTICE_TRIAL_KEY must be 32 bytes in base64')
    return key
  }
  const dir = join(dataDir, 'practice')
  const file = join(dir, 'trial.key')
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  mkdirSync(dir, { recursive: true })
  const key = randomBytes(32)
  writeFileSync(file, key.toString('base64'), { mode: 0o600 })
  return key
}

const invalidTrial = () =>
  new AppError(
    'invalid_trial',
    400,
    'This practice trial has expired or is not valid. Start a new one.',
  )

/** AES-256-GCM: the visitor holds the trial, but can neither read nor change it. */
export function seal(key: Buffer, payload: object): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

export function unseal<T>(key: Buffer, token: string): T {
  try {
    const raw = Buffer.from(token, 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString()
    return JSON.parse(text) as T
  } catch {
    throw invalidTrial()
  }
}

export { invalidTrial }
