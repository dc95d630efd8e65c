import type common from '../locales/en/common.json'

/** A page's title and description live in the catalogues (common.json, `pageMeta.<page>`). */
export type PageMetaKey = keyof (typeof common)['pageMeta']
