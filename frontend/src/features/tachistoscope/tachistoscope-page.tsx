import { AdminOnly } from '../../components/access/index.ts'
import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function TachistoscopePage() {
  usePageMeta(pageMeta.tachistoscope.title, pageMeta.tachistoscope.description)
  return (
    <AdminOnly refusal="restricted">
      <PagePlaceholder title="Tachistoscope" />
    </AdminOnly>
  )
}
