import { Box, Button, Paper, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { paths } from '../../config/paths.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { ImageGallery } from './components/image-gallery.tsx'
import { ImageUploader } from './components/image-uploader.tsx'
import { imageCategories } from './exposures.ts'

function TachistoscopeAdmin() {
  const { t } = useTranslation('tachistoscope')
  return (
    <PageContainer>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Typography variant="h4" component="h1">
          {t('admin.title')}
        </Typography>
        <Button component={RouterLink} to={paths.tachistoscope}>
          {t('admin.openTachistoscope')}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ mt: 3, p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('admin.uploadImages')}
        </Typography>
        <ImageUploader fit={false} />
      </Paper>
      <Stack spacing={4} sx={{ mt: 4 }}>
        {imageCategories.map((category) => (
          <Box key={category}>
            <ImageGallery category={category} title={t(`categories.upload.${category}`)} />
          </Box>
        ))}
      </Stack>
    </PageContainer>
  )
}

export function TachistoscopeAdminPage() {
  usePageMeta('tachistoscopeAdmin')
  return (
    <AdminOnly refusal="denied">
      <TachistoscopeAdmin />
    </AdminOnly>
  )
}
