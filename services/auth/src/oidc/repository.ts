import { and, eq, gt, lt } from 'drizzle-orm'
import { oidcLogins } from '../db/schema.ts'
import type { Queryable } from '../db/schema.ts'

export type OidcLoginRow = typeof oidcLogins.$inferSelect
export type NewOidcLogin = typeof oidcLogins.$inferInsert

/** Stores a login in progress, after clearing the ones expired by `now`. */
export async function storeLogin(db: Queryable, login: NewOidcLogin, now: Date): Promise<void> {
  await db.delete(oidcLogins).where(lt(oidcLogins.expiresAt, now))
  await db.insert(oidcLogins).values(login)
}

/** Deletes and returns the unexpired login of this state and browser (by their hashes). */
export async function takeLogin(
  db: Queryable,
  stateHash: string,
  browserHash: string,
  now: Date,
): Promise<OidcLoginRow | null> {
  const [login] = await db
    .delete(oidcLogins)
    .where(
      and(
        eq(oidcLogins.stateHash, stateHash),
        eq(oidcLogins.browserHash, browserHash),
        gt(oidcLogins.expiresAt, now),
      ),
    )
    .returning()
  return login ?? null
}
