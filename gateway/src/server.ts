import { runServer } from '@crv/kit'
import { buildGateway } from './app.ts'
import { loadGatewayConfig } from './config.ts'

await runServer(loadGatewayConfig, async (config) => (await buildGateway(config)).app)
