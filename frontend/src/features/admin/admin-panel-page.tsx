import { Badge, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useSearchParams } from 'react-router-dom'
import { AdminOnly } from '../../components/access/index.ts'
import { PageContainer } from '../../components/page-container.tsx'
import { paths } from '../../config/paths.ts'
import { usePageMeta } from '../../lib/use-page-meta.ts'
import { useListPendingDescriptorsQuery } from './api.ts'
import { DatabaseTab } from './components/database-tab.tsx'
import { DescriptorsTab } from './components/descriptors-tab.tsx'
import { PendingDescriptorList } from './components/pending-descriptor-list.tsx'
import { SettingsTab } from './components/settings-tab.tsx'

const tabs = ['pending', 'images', 'targets', 'descriptors', 'database', 'settings'] as const
type TabName = (typeof tabs)[number]
const isTab = (value: string | null): value is TabName => tabs.some((name) => name === value)

type AdminPanelProps = {
  /** The image library (upload, stats, gallery), provided by the tachistoscope feature. */
  images?: ReactNode
  /** The practice target pools, provided by the practice feature. */
  targets?: ReactNode
}

function ImagesFallback() {
  const { t } = useTranslation('admin')
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography>{t('panel.imagesIntro')}</Typography>
      <Stack direction="row" spacing={2}>
        <Button variant="contained" component={RouterLink} to={paths.tachistoscopeAdmin}>
          {t('panel.uploadImages')}
        </Button>
        <Button component={RouterLink} to={paths.tachistoscope}>
          {t('panel.testTachistoscope')}
        </Button>
      </Stack>
    </Stack>
  )
}

function AdminPanel({ images, targets }: AdminPanelProps) {
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab')
  const tab: TabName = isTab(requested) ? requested : 'pending'
  const { data: pending } = useListPendingDescriptorsQuery()
  const { t } = useTranslation('admin')
  const labels: Record<TabName, ReactNode> = {
    pending: (
      // Nothing to review, no badge: an orange 0 looked like a warning.
      <Badge color="warning" badgeContent={pending?.length ?? 0} max={999}>
        <Box component="span" sx={{ pr: 1.5 }}>
          {t('panel.tabs.pending')}
        </Box>
      </Badge>
    ),
    images: t('panel.tabs.images'),
    targets: t('panel.tabs.targets'),
    descriptors: t('panel.tabs.descriptors'),
    database: t('panel.tabs.database'),
    settings: t('panel.tabs.settings'),
  }
  return (
    <PageContainer>
      <Typography variant="h4" component="h1">
        {t('panel.title')}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_e, next: TabName) => setParams({ tab: next }, { replace: true })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={t('panel.sections')}
        sx={{ mt: 2, mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((name) => (
          <Tab
            key={name}
            value={name}
            label={labels[name]}
            id={`admin-tab-${name}`}
            aria-controls={`admin-panel-${name}`}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'pending' ? <PendingDescriptorList /> : null}
        {tab === 'images' ? (images ?? <ImagesFallback />) : null}
        {tab === 'targets'
          ? (targets ?? (
              <Button variant="contained" component={RouterLink} to={paths.adminTargets}>
                {t('panel.manageTargets')}
              </Button>
            ))
          : null}
        {tab === 'descriptors' ? <DescriptorsTab /> : null}
        {tab === 'database' ? <DatabaseTab /> : null}
        {tab === 'settings' ? <SettingsTab /> : null}
      </Box>
    </PageContainer>
  )
}

export function AdminPanelPage({ images, targets }: AdminPanelProps = {}) {
  usePageMeta('adminPanel')
  return (
    <AdminOnly refusal="denied">
      <AdminPanel images={images} targets={targets} />
    </AdminOnly>
  )
}
