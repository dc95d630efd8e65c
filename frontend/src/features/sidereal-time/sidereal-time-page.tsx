import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function SiderealTimePage() {
  usePageMeta(pageMeta.siderealTime.title, pageMeta.siderealTime.description)
  return <PagePlaceholder title="Sidereal Time" />
}
