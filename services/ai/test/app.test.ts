import { describeServiceBasics } from '@crv/kit/testing'
import aiApp from '../src/app.ts'
import { loadAiConfig } from '../src/config.ts'

describeServiceBasics('ai', aiApp, loadAiConfig)
