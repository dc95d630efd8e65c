import { Button, Stack, Typography } from '@mui/material'
import { PageContainer } from '../../components/page-container.tsx'

/** Shown when a page fails to load or render, most often after an update replaced its files. */
export function RouteError() {
  return (
    <PageContainer>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
        <Typography variant="h4" component="h1">
          Something went wrong
        </Typography>
        <Typography color="text.secondary">
          This page could not be shown. Reload to get the latest version of CRV Training.
        </Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Stack>
    </PageContainer>
  )
}
