export { useWater, WaterProvider } from './water-provider.tsx'
export type { WaterContextValue } from './water-provider.tsx'
export { waterStorageKey } from './water-unlock.ts'
