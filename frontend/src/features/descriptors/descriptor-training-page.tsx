import { PagePlaceholder } from '../../components/page-placeholder.tsx'
import { pageMeta } from '../../config/page-meta.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function DescriptorTrainingPage() {
  usePageMeta(pageMeta.descriptorTraining.title, pageMeta.descriptorTraining.description)
  return <PagePlaceholder title="Descriptor Training" />
}
