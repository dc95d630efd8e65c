import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function ExportDataPage() {
  usePageMeta(pageMeta.exportData.title, pageMeta.exportData.description)
  return (
    <SignedInOnly
      fallback={
        <SignInRequired
          title="Sign In Required"
          message="Please sign in to export your descriptors."
        />
      }
    >
      <PagePlaceholder title="Export Your Data" />
    </SignedInOnly>
  )
}
