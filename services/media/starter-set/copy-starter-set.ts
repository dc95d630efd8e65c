// Writes the tachistoscope's starter set: copies, byte for byte, pictures of the practice starter
// pool whose licence needs no credit on screen (CC0 1.0 or public domain: a flash leaves no room
// for one), and writes manifest.json with each file's licence, source, size and SHA-256. Read
// from the pool's files (its manifest and images), not its code.
//
//   npx node services/media/starter-set/copy-starter-set.ts
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { format, resolveConfig } from 'prettier'

const here = import.meta.dirname
const pool = join(here, '../../practice/starter-pool')

/** The pictures, by the pool's slugs: the spec's two categories, each across the gestalts. */
const CHOSEN = {
  random: [
    'eiffel-tower',
    'great-wall-of-china',
    'lighthouse-on-a-cliff',
    'windmill-in-a-field',
    'espresso-on-a-wooden-table',
    'waterfall-in-a-forest',
    'coral-reef',
    'iceberg',
    'snowy-mountain-peak',
    'canyon-de-chelly',
    'desert-dunes-with-sun',
    'thunderstorm-with-lightning',
    'erupting-volcano-at-night',
    'hot-air-balloons',
    'steam-train',
    'saturn-and-its-rings',
    'earth-from-space',
    'sunflower-field',
    'dandelion-clocks-in-a-meadow',
    'scarlet-macaw',
    'kitten-with-a-ball-of-wool',
    'giant-panda',
  ],
  people: [
    'actors-on-a-stage',
    'mariachi-band',
    'orchestra-in-a-concert-hall',
    'taiko-drum-festival',
    'astronaut-eileen-collins',
    'marathon-in-a-city-street',
    'market-stalls',
    'astronaut-on-a-spacewalk',
  ],
} as const

interface PoolTarget {
  slug: string
  title: string
  file: string
  licence: string
  source: string
  attribution: string | null
}

const NO_CREDIT_NEEDED = new Set(['CC0-1.0', 'public-domain'])

const { targets } = JSON.parse(await readFile(join(pool, 'manifest.json'), 'utf8')) as {
  targets: PoolTarget[]
}
const bySlug = new Map(targets.map((t) => [t.slug, t]))
await rm(join(here, 'images'), { recursive: true, force: true })
await mkdir(join(here, 'images'))
const images = []
for (const [category, slugs] of Object.entries(CHOSEN)) {
  for (const slug of slugs) {
    const target = bySlug.get(slug)
    if (!target) throw new Error(`${slug} is not in the practice starter pool`)
    if (!NO_CREDIT_NEEDED.has(target.licence))
      throw new Error(`${slug} is under ${target.licence}, which needs a credit on screen`)
    const bytes = await readFile(join(pool, target.file))
    const { width, height, format: type } = await sharp(bytes).metadata()
    if (type !== 'jpeg' || !width || !height) throw new Error(`${slug} is not a JPEG`)
    const file = `images/${slug}.jpg`
    await writeFile(join(here, file), bytes)
    images.push({
      slug,
      category,
      title: target.title,
      file,
      width,
      height,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      licence: target.licence,
      source: target.source,
      attribution: target.attribution,
    })
  }
}
const write = async (name: string, text: string) => {
  const file = join(here, name)
  await writeFile(file, await format(text, { ...(await resolveConfig(file)), filepath: file }))
}
await write('manifest.json', JSON.stringify({ images }, null, 2))

const LICENCES: Record<string, string> = {
  'CC0-1.0': '[CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/)',
  'public-domain': 'public domain',
}
const cell = (text: string) => text.replaceAll('|', '\\|')
await write(
  'README.md',
  `# Starter set of tachistoscope pictures

The pictures the flash trainer has on a fresh install (issue [25]): ${images.length} pictures, ${CHOSEN.random.length} in
Random Pictures and ${CHOSEN.people.length} in People Pictures, copied byte for byte from the practice starter pool
(\`services/practice/starter-pool\`, whose README says how each was made or where it was found). The media
service stores each once, at its first start on a database that never had it (\`src/images/starter-set.ts\`): an
administrator's deletion stays deleted, and nothing an administrator uploads is touched.

Written by \`copy-starter-set.ts\` (\`npx node services/media/starter-set/copy-starter-set.ts\`), which also
writes \`manifest.json\` (size, SHA-256, licence and source of each file).

## Licence

Only pictures that need no credit where they are shown are used: a flash of a few milliseconds leaves no room for
one. Drawn scenes are the CRV Training project's, dedicated to the public domain under CC0 1.0; photographs keep
the licence their Debian package states for that very file, CC0 1.0 or public domain.

| Picture | Category | Licence | Source |
| ------- | -------- | ------- | ------ |
${images
  .map(
    (i) =>
      `| [${cell(i.title)}](${i.file}) | ${i.category} | ${LICENCES[i.licence] ?? i.licence} | ${cell(i.source)} |`,
  )
  .join('\n')}
`,
)
console.log(`${images.length} pictures copied`)
