import { Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { PageContainer } from './page-container.tsx'

/** Stands in for a page whose feature has not been built yet. */
export function PagePlaceholder({ title }: { title: string }) {
  const { t } = useTranslation()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{t('placeholder')}</Typography>
    </PageContainer>
  )
}
