// The starter pool of practice targets (issue [10]): the committed manifest and pictures are
// complete, tagged with real concept ids, redistributable, and different enough to judge.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')
const poolDir = join(root, 'services/practice/starter-pool')

interface Target {
  slug: string
  title: string
  file: string
  feedback: string
  tags: string[]
  licence: string
  source: string
  attribution: string | null
  frontloading: string | null
}

interface Manifest {
  pool: { slug: string; name: string }
  targets: Target[]
}

const manifest = JSON.parse(readFileSync(join(poolDir, 'manifest.json'), 'utf8')) as Manifest
const allowedLicences = new Set(['CC0-1.0', 'public-domain', 'CC-BY-4.0', 'own'])

/** Concept id → vocabulary category, from the English master list. */
const categoryOf = new Map(
  readFileSync(join(root, 'services/descriptors/data/vocabulary.en.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => row.split(';'))
    .map(([id, category]) => [id ?? '', category ?? '']),
)

/** A 16×16 grayscale thumbnail: the gestalt a judge sees at a glance. */
async function thumbnail(file: string): Promise<Buffer> {
  return sharp(join(poolDir, file)).resize(16, 16, { fit: 'fill' }).grayscale().raw().toBuffer()
}

function meanAbsoluteDifference(a: Buffer, b: Buffer): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0))
  return sum / a.length
}

describe('starter pool of practice targets', () => {
  it('names the pool and holds at least 40 targets with unique slugs and files', () => {
    expect(manifest.pool).toEqual({ slug: 'starter', name: 'Starter pool' })
    expect(manifest.targets.length).toBeGreaterThanOrEqual(40)
    const slugs = manifest.targets.map((t) => t.slug)
    const files = manifest.targets.map((t) => t.file)
    expect(new Set(slugs).size).toBe(slugs.length)
    expect(new Set(files).size).toBe(files.length)
    for (const t of manifest.targets) expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  it('has every picture as a JPEG of at most 800×600 that sharp decodes, within 5 MB in all', async () => {
    let total = 0
    for (const t of manifest.targets) {
      const file = join(poolDir, t.file)
      total += statSync(file).size
      const meta = await sharp(file).metadata()
      expect(meta.format, t.file).toBe('jpeg')
      expect(meta.width, t.file).toBeLessThanOrEqual(800)
      expect(meta.height, t.file).toBeLessThanOrEqual(600)
      expect(meta.exif, t.file).toBeUndefined()
      const { info } = await sharp(file).raw().toBuffer({ resolveWithObject: true })
      expect(info.width * info.height, t.file).toBeGreaterThan(0)
    }
    expect(total).toBeLessThanOrEqual(5 * 1024 * 1024)
  })

  it('tags every target with 6 to 14 vocabulary concept ids from at least 3 categories', () => {
    for (const t of manifest.targets) {
      const unknown = t.tags.filter((tag) => !categoryOf.has(tag))
      expect(unknown, `${t.slug}: tags not in the vocabulary`).toEqual([])
      expect(new Set(t.tags).size, `${t.slug}: repeated tags`).toBe(t.tags.length)
      expect(t.tags.length, t.slug).toBeGreaterThanOrEqual(6)
      expect(t.tags.length, t.slug).toBeLessThanOrEqual(14)
      const categories = new Set(t.tags.map((tag) => categoryOf.get(tag)))
      expect(categories.size, `${t.slug}: categories`).toBeGreaterThanOrEqual(3)
    }
  })

  it('gives each target a title, a feedback text of 40 to 400 characters and a redistributable licence', () => {
    for (const t of manifest.targets) {
      expect(t.title.length, t.slug).toBeGreaterThan(0)
      expect(t.feedback.length, t.slug).toBeGreaterThanOrEqual(40)
      expect(t.feedback.length, t.slug).toBeLessThanOrEqual(400)
      expect(allowedLicences.has(t.licence), `${t.slug}: licence ${t.licence}`).toBe(true)
      expect(t.source.length, t.slug).toBeGreaterThan(0)
      if (t.licence === 'CC-BY-4.0') expect(t.attribution, t.slug).toBeTruthy()
      if (t.frontloading !== null) expect(t.frontloading.length, t.slug).toBeGreaterThan(0)
    }
  })

  it('makes every two pictures clearly different at a glance', async () => {
    const thumbs = await Promise.all(manifest.targets.map((t) => thumbnail(t.file)))
    const tooAlike: string[] = []
    for (let i = 0; i < thumbs.length; i++) {
      for (let j = i + 1; j < thumbs.length; j++) {
        const a = thumbs[i]
        const b = thumbs[j]
        if (!a || !b) continue
        // Mean absolute difference of 0–255 gray levels; near-duplicates score below 5.
        const d = meanAbsoluteDifference(a, b)
        if (d < 12) {
          tooAlike.push(
            `${manifest.targets[i]?.slug} ~ ${manifest.targets[j]?.slug}: ${d.toFixed(1)}`,
          )
        }
      }
    }
    expect(tooAlike).toEqual([])
  })
})
