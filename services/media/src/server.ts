import { createApp, runServer } from '@crv/kit'
import mediaApp from './app.ts'
import { loadMediaConfig } from './config.ts'

await runServer(loadMediaConfig, async (config) => {
  const app = createApp(config)
  await app.register(mediaApp, { config })
  return app
})
