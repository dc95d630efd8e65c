// `npm run admin -- grant|revoke <phone-or-email>` and `npm run admin -- list`: manage
// administrators. Uses DATABASE_URL, else the embedded database of DATA_DIR (through the
// running app when it is up, else opened here).
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDatabase, createPool, runMigrations } from '@crv/kit/db'
import { listAdmins, setRole } from '../services/auth/src/users/users.ts'
import { normalisePhone } from '../services/auth/src/phone/phone.ts'
import { embeddedDatabaseUrl, openEmbeddedDatabase } from './lib/embedded-db.ts'

const root = fileURLToPath(new URL('../', import.meta.url))
const [command, who] = process.argv.slice(2)
const usage = 'usage: npm run admin -- grant <phone-or-email> | revoke <phone-or-email> | list'

if (!command || !['grant', 'revoke', 'list'].includes(command) || (command !== 'list' && !who)) {
  console.error(usage)
  process.exit(2)
}

const dataDir = resolve(process.env.DATA_DIR ?? join(root, 'data'))
let close = async () => {}
let url = process.env.DATABASE_URL || embeddedDatabaseUrl(dataDir)
if (!url) {
  if (!existsSync(join(dataDir, 'postgres', 'PG_VERSION'))) {
    console.error(
      `No database yet in ${dataDir}: start the app once (npm start), or set DATABASE_URL.`,
    )
    process.exit(1)
  }
  const opened = await openEmbeddedDatabase(join(dataDir, 'postgres'))
  url = opened.url
  close = opened.close
}

const pool = createPool({ url, max: 1 })
try {
  await runMigrations(pool, { schema: 'auth', dir: join(root, 'services', 'auth', 'migrations') })
  const db = createDatabase(pool)
  if (command === 'list') {
    const admins = await listAdmins(db)
    if (admins.length === 0) console.log('no administrators')
    for (const a of admins)
      console.log(`${a.id}  ${a.displayName}  ${a.phone ?? ''}  ${a.email ?? ''}`.trim())
  } else {
    const target = who?.includes('@')
      ? { email: who.trim() }
      : { phone: normalisePhone(who ?? '', false) }
    const user = await setRole(db, target, command === 'grant' ? 'admin' : 'user')
    console.log(
      `${user.displayName} (${user.id}) is now ${user.role === 'admin' ? 'an administrator' : 'a user'}`,
    )
  }
} catch (err) {
  console.error((err as Error).message)
  process.exitCode = 1
} finally {
  await pool.end()
  await close()
}
