import { describeServiceBasics, testDatabaseUrl } from '@crv/kit/testing'
import authApp from '../src/app.ts'
import { loadAuthConfig } from '../src/config.ts'

describeServiceBasics('auth', authApp, loadAuthConfig, () => ({ DATABASE_URL: testDatabaseUrl() }))
