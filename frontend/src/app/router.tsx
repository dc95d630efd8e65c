import { createBrowserRouter } from 'react-router-dom'
import type { RouteObject } from 'react-router-dom'
import { AppLayout } from '../components/layout/index.ts'
import { paths } from '../config/paths.ts'
import { RouteError } from './routes/route-error.tsx'

export function createAppRouter() {
  return createBrowserRouter(appRoutes())
}

/** Every page of the app, each loaded with its own code; also what the build pre-renders. */
export function appRoutes(): RouteObject[] {
  return [
    {
      Component: AppLayout,
      HydrateFallback: () => null,
      children: [
        {
          // Below the layout, so the header and menu stay usable when a page fails.
          ErrorBoundary: RouteError,
          children: [
            {
              path: paths.home,
              lazy: async () => ({
                Component: (await import('../features/ideogram/ideogram-training-page.tsx'))
                  .IdeogramTrainingPage,
              }),
            },
            ...[paths.descriptors, paths.descriptorTraining].map((path) => ({
              path,
              lazy: async () => ({
                Component: (await import('../features/descriptors/descriptor-training-page.tsx'))
                  .DescriptorTrainingPage,
              }),
            })),
            {
              path: paths.tachistoscope,
              lazy: async () => ({
                Component: (await import('../features/tachistoscope/tachistoscope-page.tsx'))
                  .TachistoscopePage,
              }),
            },
            {
              path: paths.tachistoscopeAdmin,
              lazy: async () => ({
                Component: (await import('../features/tachistoscope/tachistoscope-admin-page.tsx'))
                  .TachistoscopeAdminPage,
              }),
            },
            {
              path: paths.siderealTime,
              lazy: async () => ({
                Component: (await import('../features/sidereal-time/sidereal-time-page.tsx'))
                  .SiderealTimePage,
              }),
            },
            {
              path: paths.customDescriptors,
              lazy: async () => ({
                Component: (await import('../features/descriptors/custom-descriptors-page.tsx'))
                  .CustomDescriptorsPage,
              }),
            },
            {
              path: paths.descriptorManagement,
              lazy: async () => ({
                Component: (await import('../features/admin/descriptor-management-page.tsx'))
                  .DescriptorManagementPage,
              }),
            },
            {
              path: paths.pendingDescriptors,
              lazy: async () => ({
                Component: (await import('../features/admin/pending-descriptors-page.tsx'))
                  .PendingDescriptorsPage,
              }),
            },
            {
              path: paths.adminPanel,
              lazy: async () => ({
                Component: (await import('./routes/admin-panel-route.tsx')).AdminPanelRoute,
              }),
            },
            {
              path: paths.exportData,
              lazy: async () => ({
                Component: (await import('../features/descriptors/export-data-page.tsx'))
                  .ExportDataPage,
              }),
            },
            {
              path: paths.practice,
              lazy: async () => ({
                Component: (await import('../features/practice/practice-start-page.tsx'))
                  .PracticeStartPage,
              }),
            },
            {
              path: paths.practiceSession,
              lazy: async () => ({
                Component: (await import('../features/practice/practice-session-page.tsx'))
                  .PracticeSessionPage,
              }),
            },
            {
              path: paths.practiceStats,
              lazy: async () => ({
                Component: (await import('../features/practice/practice-stats-page.tsx'))
                  .PracticeStatsPage,
              }),
            },
            {
              path: paths.progress,
              lazy: async () => ({
                Component: (await import('../features/descriptors/progress-page.tsx')).ProgressPage,
              }),
            },
            {
              path: paths.settings,
              lazy: async () => ({
                Component: (await import('../features/account/settings-page.tsx')).SettingsPage,
              }),
            },
            {
              path: paths.adminTargets,
              lazy: async () => ({
                Component: (await import('../features/practice/admin-targets-page.tsx'))
                  .AdminTargetsPage,
              }),
            },
            {
              path: '*',
              lazy: async () => ({
                Component: (await import('./routes/not-found.tsx')).NotFoundPage,
              }),
            },
          ],
        },
      ],
    },
  ]
}
