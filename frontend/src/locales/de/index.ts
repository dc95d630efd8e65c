// The de catalogues, one chunk (loaded by lib/i18n/i18n.ts).
import account from './account.json'
import admin from './admin.json'
import auth from './auth.json'
import common from './common.json'
import descriptors from './descriptors.json'
import ideogram from './ideogram.json'
import practice from './practice.json'
import sidereal from './sidereal.json'
import tachistoscope from './tachistoscope.json'

export default {
  account,
  admin,
  auth,
  common,
  descriptors,
  ideogram,
  practice,
  sidereal,
  tachistoscope,
}
