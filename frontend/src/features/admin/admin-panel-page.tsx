import { Badge, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material'
import type { ReactNode } from 'react'
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
const isTab = (value: string | null): value is TabName => tabs.some((t) => t === value)

type AdminPanelProps = {
  /** The image library (upload, stats, gallery), provided by the tachistoscope feature. */
  images?: ReactNode
  /** The practice target pools, provided by the practice feature. */
  targets?: ReactNode
}

function ImagesFallback() {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography>Upload and manage the tachistoscope&apos;s images.</Typography>
      <Stack direction="row" spacing={2}>
        <Button variant="contained" component={RouterLink} to={paths.tachistoscopeAdmin}>
          Upload Images
        </Button>
        <Button component={RouterLink} to={paths.tachistoscope}>
          Test the Tachistoscope
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
  const labels: Record<TabName, ReactNode> = {
    pending: (
      // Nothing to review, no badge: an orange 0 looked like a warning.
      <Badge color="warning" badgeContent={pending?.length ?? 0} max={999}>
        <Box component="span" sx={{ pr: 1.5 }}>
          Pending
        </Box>
      </Badge>
    ),
    images: 'Images',
    targets: 'Targets',
    descriptors: 'Descriptors',
    database: 'Database',
    settings: 'Settings',
  }
  return (
    <PageContainer>
      <Typography variant="h4" component="h1">
        Admin Panel
      </Typography>
      <Tabs
        value={tab}
        onChange={(_e, next: TabName) => setParams({ tab: next }, { replace: true })}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Admin panel sections"
        sx={{ mt: 2, mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((t) => (
          <Tab
            key={t}
            value={t}
            label={labels[t]}
            id={`admin-tab-${t}`}
            aria-controls={`admin-panel-${t}`}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'pending' ? <PendingDescriptorList /> : null}
        {tab === 'images' ? (images ?? <ImagesFallback />) : null}
        {tab === 'targets'
          ? (targets ?? (
              <Button variant="contained" component={RouterLink} to={paths.adminTargets}>
                Manage practice targets
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
