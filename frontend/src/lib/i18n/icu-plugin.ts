import type { I18nFormatModule } from 'i18next'
import { formatMessage } from './icu-format.ts'
import type { Values } from './icu-format.ts'

/** What i18next calls on an i18nFormat plugin (its type declares only `type`). */
interface FormatPlugin extends I18nFormatModule {
  parse(message: unknown, values: Values, lng: string | undefined): unknown
  addLookupKeys(keys: string[]): string[]
}

/**
 * i18next's ICU plugin, in place of i18next-icu (which brought intl-messageformat), doing what
 * it did with the options i18n.ts gave it (none): t's options are the message's values, in the
 * language t asked for; a message that does not parse or lacks a value is shown as written; no
 * plural suffixes are looked up (`_one`, `_other`), as the plurals are inside the messages; and
 * objects are not handled as objects (`handleAsObject` unset).
 */
export const icuFormat: FormatPlugin = {
  type: 'i18nFormat',
  parse(message, values, lng) {
    if (typeof message !== 'string') return message
    try {
      return formatMessage(message, lng, values)
    } catch {
      return message
    }
  },
  addLookupKeys: (keys) => keys,
}
