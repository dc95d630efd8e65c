// Unit tests render and format in English, as the spec words it.
import { initI18n } from './i18n.ts'

await initI18n()
