import { Button, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { PageContainer } from '../../components/page-container.tsx'

/** Shown when a page fails to load or render, most often after an update replaced its files. */
export function RouteError() {
  const { t } = useTranslation()
  return (
    <PageContainer>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
        <Typography variant="h4" component="h1">
          {t('routeError.title')}
        </Typography>
        <Typography color="text.secondary">{t('routeError.message')}</Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      </Stack>
    </PageContainer>
  )
}
