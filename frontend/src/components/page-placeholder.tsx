import { Typography } from '@mui/material'
import { PageContainer } from './page-container.tsx'

/** Stands in for a page whose feature has not been built yet. */
export function PagePlaceholder({ title }: { title: string }) {
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">This part of CRV Training is on its way.</Typography>
    </PageContainer>
  )
}
