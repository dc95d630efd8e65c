import { describe, expect, it } from 'vitest'
import { loadContract } from '@crv/contracts'
import { BASIC_GESTALT_IDS, gestaltClipKey, isBasicGestaltId } from '../src/index.ts'

describe('the basic gestalts', () => {
  it('are the contract enum, in its order', () => {
    const schema = loadContract().components.schemas.BasicGestaltId
    expect(BASIC_GESTALT_IDS).toEqual(schema?.enum)
  })

  it('know their own ids only', () => {
    expect(isBasicGestaltId('man')).toBe(true)
    expect(isBasicGestaltId('water')).toBe(true)
    expect(isBasicGestaltId('man-made')).toBe(false)
    expect(isBasicGestaltId('toString')).toBe(false)
  })

  it('keep each clip under gestalts/ by its id, where the media service serves it', () => {
    expect(gestaltClipKey('man')).toBe('gestalts/man.mp3')
    expect(BASIC_GESTALT_IDS.map(gestaltClipKey)).toContain('gestalts/biological.mp3')
  })
})
