// Keys are checked against the English catalogues: a `t('…')` with a key English lacks fails
// the typecheck. The other languages are checked against English by test (catalogues.test.ts).
import type account from '../../locales/en/account.json'
import type admin from '../../locales/en/admin.json'
import type auth from '../../locales/en/auth.json'
import type common from '../../locales/en/common.json'
import type descriptors from '../../locales/en/descriptors.json'
import type ideogram from '../../locales/en/ideogram.json'
import type practice from '../../locales/en/practice.json'
import type sidereal from '../../locales/en/sidereal.json'
import type tachistoscope from '../../locales/en/tachistoscope.json'

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      account: typeof account
      admin: typeof admin
      auth: typeof auth
      common: typeof common
      descriptors: typeof descriptors
      ideogram: typeof ideogram
      practice: typeof practice
      sidereal: typeof sidereal
      tachistoscope: typeof tachistoscope
    }
  }
}
