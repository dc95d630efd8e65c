import { describe, expect, it } from 'vitest'
import { count } from './count.ts'

describe('count', () => {
  it('uses the singular for one only', () => {
    expect(count(1, 'descriptor')).toBe('1 descriptor')
    expect(count(0, 'descriptor')).toBe('0 descriptors')
    expect(count(2, 'descriptor')).toBe('2 descriptors')
    expect(count(1.5, 'second')).toBe('1.5 seconds')
  })
  it('groups thousands and takes an irregular plural', () => {
    expect(count(1200, 'descriptor')).toBe('1,200 descriptors')
    expect(count(3, 'category', 'categories')).toBe('3 categories')
    expect(count(1, 'category', 'categories')).toBe('1 category')
  })
})
