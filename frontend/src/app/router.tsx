import type { FlatNamespace } from 'i18next'
import type { ComponentType } from 'react'
import { createBrowserRouter } from 'react-router-dom'
import type { RouteObject } from 'react-router-dom'
import { AppLayout } from '../components/layout/index.ts'
import { paths } from '../config/paths.ts'
import { loadNamespaces } from '../lib/i18n/index.ts'
import { RouteError } from './routes/route-error.tsx'

export function createAppRouter() {
  return createBrowserRouter(appRoutes())
}

/**
 * A page's `lazy`: its code and its catalogues (beyond the first bundle's, lib/i18n) are fetched
 * side by side, and the page is drawn once both are in. `route-namespaces.test.ts` checks that
 * each page lists every catalogue its code uses.
 */
function page<M>(
  load: () => Promise<M>,
  namespaces: FlatNamespace[],
  component: (module: M) => ComponentType,
): Pick<RouteObject, 'lazy' | 'handle'> {
  return {
    lazy: async () => {
      const [module] = await Promise.all([load(), loadNamespaces(namespaces)])
      return { Component: component(module) }
    },
    // Read by the build's pre-renderer: a page's shell asks for its catalogues with its code.
    handle: { namespaces } satisfies PageHandle,
  }
}

export type PageHandle = { namespaces: FlatNamespace[] }

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
              ...page(
                () => import('../features/ideogram/ideogram-training-page.tsx'),
                ['ideogram'],
                (m) => m.IdeogramTrainingPage,
              ),
            },
            ...[paths.descriptors, paths.descriptorTraining].map((path) => ({
              path,
              ...page(
                () => import('../features/descriptors/descriptor-training-page.tsx'),
                ['descriptors'],
                (m) => m.DescriptorTrainingPage,
              ),
            })),
            {
              path: paths.tachistoscope,
              ...page(
                () => import('../features/tachistoscope/tachistoscope-page.tsx'),
                ['tachistoscope'],
                (m) => m.TachistoscopePage,
              ),
            },
            {
              path: paths.tachistoscopeAdmin,
              ...page(
                () => import('../features/tachistoscope/tachistoscope-admin-page.tsx'),
                ['tachistoscope'],
                (m) => m.TachistoscopeAdminPage,
              ),
            },
            {
              path: paths.siderealTime,
              ...page(
                () => import('../features/sidereal-time/sidereal-time-page.tsx'),
                ['sidereal'],
                (m) => m.SiderealTimePage,
              ),
            },
            {
              path: paths.customDescriptors,
              ...page(
                () => import('../features/descriptors/custom-descriptors-page.tsx'),
                ['descriptors'],
                (m) => m.CustomDescriptorsPage,
              ),
            },
            {
              path: paths.descriptorManagement,
              ...page(
                () => import('../features/admin/descriptor-management-page.tsx'),
                ['admin'],
                (m) => m.DescriptorManagementPage,
              ),
            },
            {
              path: paths.pendingDescriptors,
              ...page(
                () => import('../features/admin/pending-descriptors-page.tsx'),
                ['admin'],
                (m) => m.PendingDescriptorsPage,
              ),
            },
            {
              path: paths.adminPanel,
              ...page(
                () => import('./routes/admin-panel-route.tsx'),
                ['admin', 'tachistoscope', 'practice'],
                (m) => m.AdminPanelRoute,
              ),
            },
            {
              path: paths.exportData,
              ...page(
                () => import('../features/descriptors/export-data-page.tsx'),
                ['descriptors'],
                (m) => m.ExportDataPage,
              ),
            },
            {
              path: paths.practice,
              ...page(
                () => import('../features/practice/practice-start-page.tsx'),
                ['practice'],
                (m) => m.PracticeStartPage,
              ),
            },
            {
              path: paths.practiceSession,
              ...page(
                () => import('../features/practice/practice-session-page.tsx'),
                ['practice'],
                (m) => m.PracticeSessionPage,
              ),
            },
            {
              path: paths.practiceStats,
              ...page(
                () => import('../features/practice/practice-stats-page.tsx'),
                ['practice'],
                (m) => m.PracticeStatsPage,
              ),
            },
            {
              path: paths.progress,
              ...page(
                () => import('../features/descriptors/progress-page.tsx'),
                ['descriptors'],
                (m) => m.ProgressPage,
              ),
            },
            {
              path: paths.settings,
              ...page(
                () => import('../features/account/settings-page.tsx'),
                ['account'],
                (m) => m.SettingsPage,
              ),
            },
            {
              path: paths.adminTargets,
              ...page(
                () => import('../features/practice/admin-targets-page.tsx'),
                ['practice'],
                (m) => m.AdminTargetsPage,
              ),
            },
            {
              path: '*',
              ...page(
                () => import('./routes/not-found.tsx'),
                [],
                (m) => m.NotFoundPage,
              ),
            },
          ],
        },
      ],
    },
  ]
}
