import { Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { PendingDescriptorList } from './components/pending-descriptor-list.tsx'

export function PendingDescriptorsPage() {
  usePageMeta('pendingDescriptors')
  const { t } = useTranslation('admin')
  return (
    <AdminOnly refusal="denied">
      <PageContainer>
        <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
          {t('pendingPage.title')}
        </Typography>
        <PendingDescriptorList />
      </PageContainer>
    </AdminOnly>
  )
}
