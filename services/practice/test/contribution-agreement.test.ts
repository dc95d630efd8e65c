import { describe, expect, it } from 'vitest'
import { agreedTags, cohensKappa, tagAgreement } from '../src/contributions/agreement.ts'

describe("Cohen's κ of two taggers over the vocabulary", () => {
  it('is the textbook value for a 2×2 table', () => {
    // Both chose 3 concepts, each one more the other did not, 95 neither: pₒ = 0.98,
    // pₑ = 0.04·0.04 + 0.96·0.96 = 0.9232, κ = 0.0568 / 0.0768.
    expect(cohensKappa({ both: 3, firstOnly: 1, secondOnly: 1 }, 100)).toBe(0.7396)
    // The usual worked example: 20 of 50 both yes, 15 both no, 5 and 10 apart: κ = 0.4.
    expect(cohensKappa({ both: 20, firstOnly: 5, secondOnly: 10 }, 50)).toBe(0.4)
  })

  it('is 1 for the same tags, below 0 for tags apart, and near the Dice coefficient on a large vocabulary', () => {
    expect(tagAgreement(['a', 'b'], ['b', 'a'], 1000).kappa).toBe(1)
    expect(tagAgreement(['a'], ['b'], 100).kappa).toBe(-0.0101)
    const agreement = tagAgreement(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'e', 'f', 'g'], 1200)
    const dice = (2 * 3) / (4 + 6)
    expect(Math.abs(agreement.kappa - dice)).toBeLessThan(0.01)
    expect(agreement).toMatchObject({
      universe: 1200,
      both: ['a', 'b', 'c'],
      contributorOnly: ['d'],
      secondOnly: ['e', 'f', 'g'],
    })
  })

  it('refuses tags that do not fit in the universe', () => {
    expect(() => cohensKappa({ both: 5, firstOnly: 3, secondOnly: 3 }, 10)).toThrow(RangeError)
  })
})

describe('the agreed set', () => {
  const agreement = tagAgreement(['ocean', 'cold', 'boat'], ['ocean', 'boat', 'calm'], 900)

  it('is what both chose, with the tags of one tagger the moderator confirms', () => {
    expect(agreedTags(agreement, [])).toEqual({ tags: ['boat', 'ocean'] })
    expect(agreedTags(agreement, ['calm'])).toEqual({ tags: ['boat', 'calm', 'ocean'] })
    expect(agreedTags(agreement, ['calm', 'cold'])).toEqual({
      tags: ['boat', 'calm', 'cold', 'ocean'],
    })
  })

  it('takes no confirmed tag that neither or both chose, and is never empty', () => {
    expect(agreedTags(agreement, ['ocean', 'tall'])).toEqual({ notDisputed: ['ocean', 'tall'] })
    expect(agreedTags(tagAgreement(['cold'], ['warm'], 900), [])).toEqual({ none: true })
    expect(agreedTags(tagAgreement(['cold'], ['warm'], 900), ['warm'])).toEqual({ tags: ['warm'] })
  })
})
