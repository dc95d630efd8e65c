import { AdminOnly } from '../../components/access/index.ts'
import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function AdminPanelPage() {
  usePageMeta(pageMeta.adminPanel.title, pageMeta.adminPanel.description)
  return (
    <AdminOnly refusal="denied">
      <PagePlaceholder title="Admin Panel" />
    </AdminOnly>
  )
}
