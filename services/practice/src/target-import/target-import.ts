// Importing a collection of targets from a manifest (issue [24] item 4), from the admin page or
// the command line. Every row is checked the same way in a dry run and in the real run: its
// fields, its licence against the allowlist, its tags against the vocabulary, its picture as an
// upload is (format, size, pixels; re-encoded), and its perceptual hash against the pool and
// the rows above it. A dry run stores nothing. The real run adds every accepted row in one
// transaction (all of them, or none when anything fails) and refuses the rest.
import type { components } from '@crv/contracts'
import { notFound } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import { prepareImage } from '@crv/kit/images'
import type { ImageLimits } from '@crv/kit/images'
import type { ObjectStorage } from '@crv/kit/storage'
import type { FastifyBaseLogger } from 'fastify'
import { hashMissing } from '../near-duplicates/backfill.ts'
import { nearestDuplicate, perceptualHashOf } from '../near-duplicates/perceptual-hash.ts'
import type { PerceptualHash } from '../near-duplicates/perceptual-hash.ts'
import { poolHashes } from '../near-duplicates/repository.ts'
import type { HashedTarget } from '../near-duplicates/repository.ts'
import { sha256Hex } from '../sessions/sealing.ts'
import type { Vocabulary } from '../vocabulary.ts'
import { addTargets } from './add-targets.ts'
import type { NewTarget } from './add-targets.ts'
import { allowedLicence, needsAttribution } from './licences.ts'
import { parseManifest } from './manifest.ts'
import type { ManifestRow } from './manifest.ts'
import { normalisedPath } from './pictures.ts'
import type { PictureSource } from './pictures.ts'
import { duplicateInManifest, nearDuplicate, pictureReason } from './reasons.ts'
import type { Reason } from './reasons.ts'
import { poolIdOf } from './repository.ts'
import { resolveTags } from './tags.ts'

type Schemas = components['schemas']
export type ImportReport = Schemas['PracticeImportReport']
type ReportRow = Schemas['PracticeImportRow']

export interface ImportDeps {
  db: Database
  storage: ObjectStorage
  vocabulary: Vocabulary
  limits: ImageLimits
  log?: Pick<FastifyBaseLogger, 'warn'>
}

export interface ImportRequest {
  poolId: string
  dryRun: boolean
  manifest: { name: string; text: string }
  pictures: PictureSource
}

/** A row after its checks: what the report says, and what a real run stores. */
interface CheckedRow {
  report: ReportRow
  /** The normalised path or URL, to find a row naming the same picture twice. */
  ref: string | null
  hash: PerceptualHash | null
  /** What a real run adds, for an accepted row (its picture in the stored form). */
  target: NewTarget | null
}

export async function importTargets(
  deps: ImportDeps,
  request: ImportRequest,
): Promise<ImportReport> {
  const manifest = parseManifest(request.manifest.name, request.manifest.text)
  const poolId = await poolIdOf(deps.db, request.poolId)
  if (!poolId) throw notFound('Target pool not found')
  // Every target of the pool is compared, including any stored before hashes existed.
  await hashMissing(deps.db, deps.storage, { poolId })
  const existing = await poolHashes(deps.db, poolId)

  const rows: CheckedRow[] = []
  for (const row of manifest.rows) {
    rows.push(await checkRow(deps, row, { existing, earlier: rows, pictures: request.pictures }))
  }
  if (!request.dryRun) await addAccepted(deps, poolId, rows)
  const reports = rows.map((r) => r.report)
  return {
    dryRun: request.dryRun,
    poolId,
    accepted: reports.filter((r) => r.status !== 'refused').length,
    refused: reports.filter((r) => r.status === 'refused').length,
    added: reports.filter((r) => r.status === 'added').length,
    ignoredColumns: manifest.ignoredColumns,
    rows: reports,
  }
}

async function checkRow(
  deps: ImportDeps,
  row: ManifestRow,
  context: { existing: HashedTarget[]; earlier: CheckedRow[]; pictures: PictureSource },
): Promise<CheckedRow> {
  const reasons: Reason[] = [...row.reasons]
  const { text } = row

  const licence = text.licence === undefined ? null : allowedLicence(text.licence)
  if (text.licence !== undefined && !licence) {
    reasons.push({
      code: 'licence_not_allowed',
      message: `The licence "${text.licence}" is not allowed: only CC0, public domain, the project's own, or CC BY or CC BY-SA (2.0 to 4.0) with an attribution.`,
      details: { licence: text.licence },
    })
  }
  if (licence && needsAttribution(licence) && !text.attribution) {
    reasons.push({
      code: 'attribution_required',
      message: `A ${licence} picture needs its attribution (who made it).`,
    })
  }

  const tags = resolveTags(deps.vocabulary, row.tags)
  if (tags.unknown.length > 0) {
    reasons.push({
      code: 'unknown_tags',
      message:
        `These tags are neither concept ids nor words of the vocabulary: ${tags.unknown.join(', ')}`.slice(
          0,
          1000,
        ),
      details: { tags: tags.unknown.map((t) => t.slice(0, 200)) },
    })
  }

  const ref = text.file === undefined ? null : normalisedPath(text.file)
  let hash: PerceptualHash | null = null
  let image: Buffer | null = null
  const sameFile = ref === null ? undefined : context.earlier.find((e) => e.ref === ref)
  if (sameFile) reasons.push(duplicateInManifest(sameFile.report.row, null))
  else if (text.file !== undefined) {
    try {
      const prepared = await prepareImage(await context.pictures(text.file), {
        fit: true,
        limits: deps.limits,
      })
      image = prepared.bytes
      hash = await perceptualHashOf(image)
    } catch (err) {
      reasons.push(pictureReason(err))
    }
  }
  if (hash) {
    const inPool = nearestDuplicate(hash, context.existing)
    const inManifest = inPool
      ? null
      : nearestDuplicate(
          hash,
          context.earlier.flatMap((e) => (e.hash ? [{ hash: e.hash, row: e.report.row }] : [])),
        )
    if (inPool) reasons.push(nearDuplicate(inPool.match, inPool.distance))
    else if (inManifest)
      reasons.push(duplicateInManifest(inManifest.match.row, inManifest.distance))
  }

  const accepted = reasons.length === 0
  const target: NewTarget | null =
    accepted && licence && image && hash
      ? {
          title: text.title ?? '',
          feedback: text.feedback ?? '',
          tags: tags.ids,
          licence,
          source: text.source ?? '',
          attribution: text.attribution ?? null,
          frontloading: text.frontloading ?? null,
          image,
          imageSha256: sha256Hex(image),
          hash,
        }
      : null
  return {
    report: {
      row: row.row,
      file: (text.file ?? '').slice(0, 2000),
      title: (text.title ?? '').slice(0, 200),
      status: target ? 'accepted' : 'refused',
      targetId: null,
      licence,
      tags: tags.ids.slice(0, 50),
      reasons: reasons.slice(0, 20),
    },
    ref,
    hash,
    target,
  }
}

async function addAccepted(deps: ImportDeps, poolId: string, rows: CheckedRow[]): Promise<void> {
  const accepted = rows.flatMap((r) => (r.target ? [{ report: r.report, target: r.target }] : []))
  const outcomes = await addTargets(
    deps,
    poolId,
    accepted.map((r) => r.target),
  )
  accepted.forEach((r, i) => {
    const outcome = outcomes[i]
    if (outcome && 'targetId' in outcome) {
      r.report.status = 'added'
      r.report.targetId = outcome.targetId
    } else if (outcome) {
      r.report.status = 'refused'
      r.report.reasons = [outcome.reason]
    }
  })
}
