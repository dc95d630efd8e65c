import { createApp, runServer } from '@crv/kit'
import gatewayApp from './app.ts'
import { loadGatewayConfig } from './config.ts'

await runServer(loadGatewayConfig, async (config) => {
  const app = createApp(config)
  await app.register(gatewayApp, { config })
  return app
})
