import type { components } from '@crv/contracts'
import type { UserRow } from '../db/schema.ts'
import { toApiUser } from '../users/views.ts'
import type { IdentityRow } from './repository.ts'

type Export = components['schemas']['AccountExport']

export function accountExportView(
  exportedAt: Date,
  user: UserRow,
  linked: IdentityRow[],
  parts: { descriptors: unknown; media: unknown; practice: unknown },
): Export {
  return {
    format: 'crv-training-account/1',
    exportedAt: exportedAt.toISOString(),
    account: {
      user: toApiUser(user),
      identities: linked.map((i) => ({
        issuer: i.issuer,
        subject: i.subject,
        linkedAt: i.createdAt.toISOString(),
      })),
    },
    descriptors: parts.descriptors as Export['descriptors'],
    media: parts.media as Export['media'],
    practice: parts.practice as Export['practice'],
  }
}

/** The export's file name: the day it was made. */
export const exportFileName = (exportedAt: Date) =>
  `crv-training-account-${exportedAt.toISOString().slice(0, 10)}.json`
