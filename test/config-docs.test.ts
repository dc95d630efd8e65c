// Every configuration variable a process reads is documented in README's table and in
// .env.example, so the two cannot fall behind the code.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configShape as auth } from '../services/auth/src/config.ts'
import { configShape as descriptors } from '../services/descriptors/src/config.ts'
import { configShape as media } from '../services/media/src/config.ts'
import { configShape as ai } from '../services/ai/src/config.ts'
import { configShape as astro } from '../services/astro/src/config.ts'
import { configShape as practice } from '../services/practice/src/config.ts'
import { configShape as gateway } from '../gateway/src/config.ts'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8')
const variables = [
  ...new Set(
    [auth, descriptors, media, ai, astro, practice, gateway].flatMap((s) => Object.keys(s)),
  ),
]

describe('configuration documentation', () => {
  it.each(variables)('documents %s in README and .env.example', (name) => {
    expect(readme).toContain(`\`${name}\``)
    expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'))
  })
})
