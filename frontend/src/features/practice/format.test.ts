import { describe, expect, it } from 'vitest'
import { scoredPartLabel } from './format.ts'

describe('the parts of a write-up the score read', () => {
  it('are named as the write-up names its sections and columns', () => {
    expect(
      [
        'stage1.a',
        'stage1.b',
        'stage2.textures',
        'aestheticImpact',
        'stage3.notes',
        'stage4.S',
        'stage4.AOLS',
      ].map(scoredPartLabel),
    ).toEqual([
      'A component (the feel of the motion)',
      'B component (first gestalt)',
      'Textures',
      'Aesthetic impact',
      'Sketch notes',
      'Matrix Sensories',
      'Matrix Analytic overlay with sensories',
    ])
  })

  it('take a bare column name, and show an unknown part as it is', () => {
    expect(['stage1', 'colours', 'stage2', 'EI', 'summary'].map(scoredPartLabel)).toEqual([
      'Stage I: ideograms',
      'Colours',
      'Stage II: sensories',
      'Matrix Emotional impact',
      'summary',
    ])
  })
})
