// The admin panel with its Images tab: the tachistoscope feature's uploader (scaling to
// 800×600 JPEG, as the spec's admin panel does) and galleries, composed here because one feature
// does not import another.
import { Box, Button, Chip, Stack, Typography } from '@mui/material'
import { count } from '../../lib/text/count.ts'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../config/paths.ts'
import { AdminPanelPage } from '../../features/admin/admin-panel-page.tsx'
import { TargetsManager } from '../../features/practice/admin-targets-page.tsx'
import { ImageGallery } from '../../features/tachistoscope/components/image-gallery.tsx'
import { ImageUploader } from '../../features/tachistoscope/components/image-uploader.tsx'
import { uploadCategoryLabels, type ImageCategory } from '../../features/tachistoscope/exposures.ts'
import { useListTachistoscopeImagesQuery } from '../../lib/api/generated.ts'

const categories = Object.keys(uploadCategoryLabels) as ImageCategory[]

function CategoryCount({ category }: { category: ImageCategory }) {
  const { data, isError } = useListTachistoscopeImagesQuery({ category })
  const images = isError ? '? images' : data ? count(data.length, 'image') : '… images'
  return <Chip label={`${uploadCategoryLabels[category]}: ${images}`} />
}

function ImagesTab() {
  return (
    <Stack spacing={4}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Image library
        </Typography>
        {categories.map((category) => (
          <CategoryCount key={category} category={category} />
        ))}
        <Button variant="outlined" component={RouterLink} to={paths.tachistoscope}>
          Test the Tachistoscope
        </Button>
      </Stack>
      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          Upload Images
        </Typography>
        <ImageUploader fit />
      </Box>
      {categories.map((category) => (
        <ImageGallery key={category} category={category} title={uploadCategoryLabels[category]} />
      ))}
    </Stack>
  )
}

export function AdminPanelRoute() {
  return <AdminPanelPage images={<ImagesTab />} targets={<TargetsManager />} />
}
