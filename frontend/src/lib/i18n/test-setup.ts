// Unit tests render and format in English, as the spec words it, with every catalogue loaded.
import { initI18n, loadNamespaces } from './i18n.ts'

await initI18n()
await loadNamespaces([
  'account',
  'admin',
  'descriptors',
  'ideogram',
  'practice',
  'sidereal',
  'tachistoscope',
])
