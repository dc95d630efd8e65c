import { createContext, useContext, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { PageMetaKey } from '../config/page-meta.ts'

export interface PageMeta {
  title: string
  description: string
}

/** Where a page rendered ahead of time (the build's route shells) tells its title and description. */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null)

/** Sets the document title and meta description, in the interface's language, while the page is shown. */
export function usePageMeta(page: PageMetaKey): void {
  const { t } = useTranslation()
  const title = t(`pageMeta.${page}.title`)
  const description = t(`pageMeta.${page}.description`)
  useContext(PageMetaCollector)?.({ title, description })
  useEffect(() => {
    document.title = title
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]')
    if (!meta) {
      meta = document.createElement('meta')
      meta.name = 'description'
      document.head.append(meta)
    }
    meta.content = description
  }, [title, description])
}
