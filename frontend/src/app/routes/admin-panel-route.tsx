// The admin panel with its Images tab: the tachistoscope feature's uploader (scaling to
// 800×600 JPEG, as the spec's admin panel does) and galleries, composed here because one feature
// does not import another.
import { Box, Button, Chip, Stack, Typography } from '@mui/material'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../config/paths.ts'
import { AdminPanelPage } from '../../features/admin/admin-panel-page.tsx'
import { TargetsManager } from '../../features/practice/admin-targets-page.tsx'
import { ImageGallery } from '../../features/tachistoscope/components/image-gallery.tsx'
import { ImageUploader } from '../../features/tachistoscope/components/image-uploader.tsx'
import { useListTachistoscopeImagesQuery } from '../../features/tachistoscope/api.ts'
import { imageCategories, type ImageCategory } from '../../features/tachistoscope/exposures.ts'

function CategoryCount({ category }: { category: ImageCategory }) {
  const { t } = useTranslation('tachistoscope')
  const { data, isError } = useListTachistoscopeImagesQuery({ category })
  const name = t(`categories.upload.${category}`)
  const label = isError
    ? t('admin.categoryCountUnknown', { category: name })
    : data
      ? t('admin.categoryCount', { category: name, count: data.length })
      : t('admin.categoryCountLoading', { category: name })
  return <Chip label={label} />
}

function ImagesTab() {
  const { t } = useTranslation('tachistoscope')
  return (
    <Stack spacing={4}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('admin.imageLibrary')}
        </Typography>
        {imageCategories.map((category) => (
          <CategoryCount key={category} category={category} />
        ))}
        <Button variant="outlined" component={RouterLink} to={paths.tachistoscope}>
          {t('admin.testTachistoscope')}
        </Button>
      </Stack>
      <Box>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {t('admin.uploadImages')}
        </Typography>
        <ImageUploader fit />
      </Box>
      {imageCategories.map((category) => (
        <ImageGallery
          key={category}
          category={category}
          title={t(`categories.upload.${category}`)}
        />
      ))}
    </Stack>
  )
}

export function AdminPanelRoute() {
  return <AdminPanelPage images={<ImagesTab />} targets={<TargetsManager />} />
}
