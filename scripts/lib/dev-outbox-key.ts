// The development SMS outbox's key (services/auth/src/dev-outbox.ts): made once per start,
// printed, and kept where only this account can read it, for tools that read the outbox.
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const devOutboxKeyFile = (dataDir: string) => join(dataDir, 'run', 'dev-outbox-key')

/** DEV_OUTBOX_KEY when set, else a new key; written owner-only to DATA_DIR/run/dev-outbox-key. */
export function publishDevOutboxKey(dataDir: string, given?: string): string {
  const key = given || randomBytes(24).toString('base64url')
  mkdirSync(join(dataDir, 'run'), { recursive: true })
  // A file that exists keeps its mode: start afresh so that 0600 applies.
  rmSync(devOutboxKeyFile(dataDir), { force: true })
  writeFileSync(devOutboxKeyFile(dataDir), `${key}\n`, { mode: 0o600, flag: 'wx' })
  return key
}

export function unpublishDevOutboxKey(dataDir: string): void {
  rmSync(devOutboxKeyFile(dataDir), { force: true })
}
