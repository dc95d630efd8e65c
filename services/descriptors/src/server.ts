import { createApp, runServer } from '@crv/kit'
import descriptorsApp from './app.ts'
import { loadDescriptorsConfig } from './config.ts'

await runServer(loadDescriptorsConfig, async (config) => {
  const app = createApp(config)
  await app.register(descriptorsApp, { config })
  return app
})
