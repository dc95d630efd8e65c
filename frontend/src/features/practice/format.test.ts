import { describe, expect, it } from 'vitest'
import { scoredPartLabel } from './format.ts'

describe('the parts of a write-up the score read', () => {
  it('are named as the write-up names its sections and columns', () => {
    expect(
      ['stage1', 'stage2.textures', 'aestheticImpact', 'stage3', 'stage4.S', 'stage4.AOLS'].map(
        scoredPartLabel,
      ),
    ).toEqual([
      'Stage I: ideograms',
      'Textures',
      'Aesthetic impact',
      'Sketch notes',
      'Matrix Sensories',
      'Matrix Analytic overlay with sensories',
    ])
  })

  it('take a bare column name, and show an unknown part as it is', () => {
    expect(['colours', 'stage2', 'EI', 'summary'].map(scoredPartLabel)).toEqual([
      'Colours',
      'Stage II: sensories',
      'Matrix Emotional impact',
      'summary',
    ])
  })
})
