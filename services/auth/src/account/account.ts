// An account's export and deletion across the services that keep a user's data (parts.ts).
import { AppError, unauthorized } from '@crv/kit'
import type { AuthUser } from '@crv/kit'
import type { components } from '@crv/contracts'
import type { AuthServices } from '../deps.ts'
import { deleteCodesOf } from '../phone/repository.ts'
import { revoke, userSubject } from '../revocations/revocations.ts'
import type { UserRow } from '../db/schema.ts'
import { findUser } from '../users/users.ts'
import { PARTS } from './parts.ts'
import type { CallPart } from './parts.ts'
import { deleteUser, identitiesOf } from './repository.ts'
import { accountExportView } from './views.ts'

const accountGone = () => new AppError('account_not_found', 401, 'This account no longer exists')

/** The caller's account, which a valid token may outlive. */
export async function currentAccount(services: AuthServices, caller: AuthUser): Promise<UserRow> {
  const user = await findUser(services.db, caller.id)
  if (!user) throw accountGone()
  return user
}

/** Everything kept about the caller: this service's part and every other service's. */
export async function exportAccount(
  services: AuthServices,
  callPart: CallPart,
  caller: AuthUser,
  authorization: string,
  now: Date,
): Promise<components['schemas']['AccountExport']> {
  const { db } = services
  const row = await findUser(db, caller.id)
  if (!row) throw accountGone()
  const [linked, descriptors, media, practice] = await Promise.all([
    identitiesOf(db, caller.id),
    callPart('descriptors', 'GET', authorization),
    callPart('media', 'GET', authorization),
    callPart('practice', 'GET', authorization),
  ])
  return accountExportView(now, row, linked, { descriptors, media, practice })
}

/**
 * Deletes the caller's account: every other service's part first, one by one (if one fails the
 * account stays, so the user can sign in and ask again: each part's deletion is idempotent),
 * then the account, its phone codes, and its access tokens on every service.
 */
export async function deleteAccount(
  services: AuthServices,
  callPart: CallPart,
  caller: AuthUser,
  authorization: string,
): Promise<void> {
  const { config, db, revocations } = services
  // A revoked token may call again (see app.ts): an account already gone is done; a
  // signed-out token deletes nothing.
  if (!(await findUser(db, caller.id)) && (await revocations('', caller))) return
  if (await revocations('', caller)) throw unauthorized()
  for (const part of PARTS) await callPart(part, 'DELETE', authorization)
  await db.transaction(async (tx) => {
    const row = await findUser(tx, caller.id)
    if (row?.phone) await deleteCodesOf(tx, row.phone)
    // Identities and refresh tokens go with the user; the access tokens stop writing, on every
    // service, from this commit.
    await deleteUser(tx, caller.id)
    await revoke(tx, [userSubject(caller.id)], config.ACCESS_TOKEN_TTL_SECONDS)
  })
}
