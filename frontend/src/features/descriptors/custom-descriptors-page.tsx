import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

const title = 'Manage Your Custom Descriptors'

export function CustomDescriptorsPage() {
  usePageMeta(pageMeta.customDescriptors.title, pageMeta.customDescriptors.description)
  return (
    <SignedInOnly
      fallback={
        <SignInRequired title={title} message="Please log in to view your custom descriptors." />
      }
    >
      <PagePlaceholder title={title} />
    </SignedInOnly>
  )
}
