import { AdminOnly } from '../../components/access/index.ts'
import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function TachistoscopeAdminPage() {
  usePageMeta(pageMeta.tachistoscopeAdmin.title, pageMeta.tachistoscopeAdmin.description)
  return (
    <AdminOnly refusal="denied">
      <PagePlaceholder title="Tachistoscope Images" />
    </AdminOnly>
  )
}
