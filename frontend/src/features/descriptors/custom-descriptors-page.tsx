import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import DeleteIcon from '@mui/icons-material/DeleteOutlined'
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { SignedInOnly, SignInRequired } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { paths } from '../../config/paths.ts'
import { errorMessage } from '../../lib/api/index.ts'
import type { Descriptor } from '../../lib/api/generated.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { useListUserDescriptorsQuery } from './api.ts'
import { ConfirmDeleteDialog } from './components/confirm-delete-dialog.tsx'
import { WordChip, WordList } from './components/word-chip.tsx'
import { useDeleteDescriptor } from './use-descriptor-actions.ts'
import { useDescriptorViewer } from './use-descriptor-viewer.ts'

function CustomDescriptors() {
  const { t } = useTranslation('descriptors')
  useDescriptorViewer()
  const { data, error, isLoading } = useListUserDescriptorsQuery({})
  const { remove, deletingId } = useDeleteDescriptor()
  const [confirming, setConfirming] = useState<Descriptor | null>(null)

  let content
  if (isLoading) {
    content = (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={t('custom.loading')} />
      </Box>
    )
  } else if (error) {
    content = (
      <Alert severity="error">
        {t('custom.error', { message: errorMessage(error, t('custom.loadFailed')) })}
      </Alert>
    )
  } else if (!data || data.length === 0) {
    content = <Typography color="text.secondary">{t('custom.empty')}</Typography>
  } else {
    content = (
      <WordList label={t('custom.listLabel')}>
        {data.map((descriptor) => (
          <WordChip
            key={descriptor.id}
            word={descriptor.word}
            note={`${descriptor.language.toUpperCase()}${descriptor.status === 'pending' ? ` · ${t('pending')}` : ''}`}
            action={{
              label: t('deleteWord', { word: descriptor.word }),
              icon: <DeleteIcon fontSize="small" />,
              onClick: () => setConfirming(descriptor),
              busy: deletingId === descriptor.id,
            }}
          />
        ))}
      </WordList>
    )
  }

  return (
    <PageContainer>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' } }}
      >
        <Typography variant="h4" component="h1">
          {t('custom.title')}
        </Typography>
        <Button component={RouterLink} to={paths.descriptors} startIcon={<ArrowBackIcon />}>
          {t('custom.back')}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ mt: 3, p: { xs: 2, sm: 3 } }}>
        {content}
      </Paper>
      <Alert severity="info" sx={{ mt: 3 }}>
        {t('custom.hint')}
      </Alert>
      <ConfirmDeleteDialog
        descriptor={confirming}
        deleting={confirming !== null && deletingId === confirming.id}
        onCancel={() => setConfirming(null)}
        onConfirm={(descriptor) => {
          void remove(descriptor).then(() => setConfirming(null))
        }}
      />
    </PageContainer>
  )
}

export function CustomDescriptorsPage() {
  usePageMeta('customDescriptors')
  const { t } = useTranslation('descriptors')
  return (
    <SignedInOnly
      fallback={<SignInRequired title={t('custom.title')} message={t('custom.signIn')} />}
    >
      <CustomDescriptors />
    </SignedInOnly>
  )
}
