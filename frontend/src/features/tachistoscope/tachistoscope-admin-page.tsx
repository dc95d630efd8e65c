import { Box, Button, Paper, Stack, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { paths } from '../../config/paths.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { ImageGallery } from './components/image-gallery.tsx'
import { ImageUploader } from './components/image-uploader.tsx'
import { uploadCategoryLabels, type ImageCategory } from './exposures.ts'

function TachistoscopeAdmin() {
  return (
    <PageContainer>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Typography variant="h4" component="h1">
          Tachistoscope Images
        </Typography>
        <Button component={RouterLink} to={paths.tachistoscope}>
          Open the Tachistoscope
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ mt: 3, p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Upload Images
        </Typography>
        <ImageUploader fit={false} />
      </Paper>
      <Stack spacing={4} sx={{ mt: 4 }}>
        {(Object.keys(uploadCategoryLabels) as ImageCategory[]).map((category) => (
          <Box key={category}>
            <ImageGallery category={category} title={uploadCategoryLabels[category]} />
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
