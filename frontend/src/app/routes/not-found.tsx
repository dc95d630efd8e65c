import { Notice } from '../../components/notice.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function NotFoundPage() {
  usePageMeta(pageMeta.notFound.title, pageMeta.notFound.description)
  return (
    <Notice title="Page Not Found" homeLink>
      The page you are looking for does not exist or has moved.
    </Notice>
  )
}
