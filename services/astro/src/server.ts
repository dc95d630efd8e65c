import { createApp, runServer } from '@crv/kit'
import astroApp from './app.ts'
import { loadAstroConfig } from './config.ts'

await runServer(loadAstroConfig, async (config) => {
  const app = createApp(config)
  await app.register(astroApp, { config })
  return app
})
