import { createApp, runServer } from '@crv/kit'
import authApp from './app.ts'
import { loadAuthConfig } from './config.ts'

await runServer(loadAuthConfig, async (config) => {
  const app = createApp(config)
  await app.register(authApp, { config })
  return app
})
