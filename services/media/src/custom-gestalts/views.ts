import type { components } from '@crv/contracts'
import type { CustomGestaltRow } from './repository.ts'
import { downloadUrlOf } from './storage-url.ts'

type Schemas = components['schemas']

export const customGestaltView = (row: CustomGestaltRow): Schemas['CustomWord'] => ({
  id: row.id,
  word: row.word,
  audioUrl: downloadUrlOf(row.objectKey),
  userId: row.userId,
})

export const mediaExportView = (
  gestalts: (CustomGestaltRow & { createdAt: string })[],
): Schemas['MediaAccountData'] => ({
  customGestalts: gestalts.map((g) => ({
    id: g.id,
    word: g.word,
    audioUrl: downloadUrlOf(g.objectKey),
    createdAt: g.createdAt,
  })),
})
