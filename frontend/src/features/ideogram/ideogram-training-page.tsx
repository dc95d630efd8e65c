import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function IdeogramTrainingPage() {
  usePageMeta(pageMeta.home.title, pageMeta.home.description)
  return <PagePlaceholder title="Ideogram Training" />
}
