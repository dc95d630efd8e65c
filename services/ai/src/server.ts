import { createApp, runServer } from '@crv/kit'
import aiApp from './app.ts'
import { loadAiConfig } from './config.ts'

await runServer(loadAiConfig, async (config) => {
  const app = createApp(config)
  await app.register(aiApp, { config })
  return app
})
