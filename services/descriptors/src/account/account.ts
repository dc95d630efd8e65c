// A user's own data in this service, for their export and for deleting their account
// (`GET`/`DELETE /api/account/descriptors`; the auth service gathers every service's part).
import type { Database } from '@crv/kit/db'
import type { components } from '@crv/contracts'
import {
  accountRows,
  deletePendingWords,
  deleteTrainingData,
  forgetAuthor,
  releaseWords,
} from './repository.ts'
import { accountDataOf } from './views.ts'

type Data = components['schemas']['DescriptorAccountData']

/** Who an administrator's deleted account was, in the audit log: no one in particular. */
export const DELETED_ACCOUNT = 'deleted-account'

export async function accountData(db: Database, userId: string): Promise<Data> {
  return accountDataOf(await accountRows(db, userId))
}

/**
 * Deletes everything of the user's here, in one transaction: their pending words (with their
 * concepts), hides, review cards and answers and training sessions. Words an administrator
 * approved into the shared vocabulary stay, without their author; the audit log and analytics
 * keep what happened, without who.
 */
export async function deleteAccountData(
  db: Database,
  userId: string,
): Promise<{ sharedChanged: boolean }> {
  return db.transaction(async (tx) => {
    await deletePendingWords(tx, userId)
    const kept = await releaseWords(tx, userId)
    await deleteTrainingData(tx, userId)
    await forgetAuthor(tx, userId, DELETED_ACCOUNT)
    return { sharedChanged: kept > 0 }
  })
}
