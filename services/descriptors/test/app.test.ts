import { describeServiceBasics, testDatabaseUrl } from '@crv/kit/testing'
import descriptorsApp from '../src/app.ts'
import { loadDescriptorsConfig } from '../src/config.ts'

describeServiceBasics('descriptors', descriptorsApp, loadDescriptorsConfig, () => ({
  DATABASE_URL: testDatabaseUrl(),
}))
