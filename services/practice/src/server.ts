import { createApp, runServer } from '@crv/kit'
import practiceApp from './app.ts'
import { loadPracticeConfig } from './config.ts'

await runServer(loadPracticeConfig, async (config) => {
  const app = createApp(config)
  await app.register(practiceApp, { config })
  return app
})
