import { describeServiceBasics, testDatabaseUrl } from '@crv/kit/testing'
import mediaApp from '../src/app.ts'
import { loadMediaConfig } from '../src/config.ts'

describeServiceBasics('media', mediaApp, loadMediaConfig, () => ({
  DATABASE_URL: testDatabaseUrl(),
}))
