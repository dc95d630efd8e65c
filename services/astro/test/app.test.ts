import { describeServiceBasics } from '@crv/kit/testing'
import astroApp from '../src/app.ts'
import { loadAstroConfig } from '../src/config.ts'

describeServiceBasics('astro', astroApp, loadAstroConfig)
