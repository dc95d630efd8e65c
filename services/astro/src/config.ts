import { baseConfigShape, loadConfig } from '@crv/kit'

export const configShape = {
  ...baseConfigShape('astro', 8085),
}

export type AstroConfig = ReturnType<typeof loadAstroConfig>

export const loadAstroConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig(configShape, source)
