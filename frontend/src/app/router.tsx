import type { FlatNamespace } from 'i18next'
import { Component, use, useLayoutEffect, useState, useTransition } from 'react'
import type { ComponentType, ErrorInfo, ReactNode } from 'react'
import {
  Outlet,
  Route,
  Router,
  Routes,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  matchPath,
  useLocation,
} from 'react-router-dom'
import { AppLayout, NavigationPending } from '../components/layout/index.ts'
import { paths } from '../config/paths.ts'
import { loadNamespaces } from '../lib/i18n/index.ts'
import { RouteError } from './routes/route-error.tsx'

/** A page drawn from its own code, fetched with its catalogues on first use. */
export type LazyPage = ComponentType & {
  /** Fetches the page's code and catalogues; resolves once it can be drawn without waiting. */
  preload: () => Promise<void>
  /** The catalogues the page loads beside its code (read by the build's pre-renderer). */
  namespaces: FlatNamespace[]
}

/**
 * A page's code and its catalogues (beyond the first bundle's, lib/i18n) are fetched side by
 * side, once; until both are in, the page suspends (a navigation keeps the last page up while it
 * waits). `route-namespaces.test.ts` checks that each page lists every catalogue its code uses.
 */
function page<M>(
  load: () => Promise<M>,
  namespaces: FlatNamespace[],
  component: (module: M) => ComponentType,
): LazyPage {
  let loaded: ComponentType | null = null
  let loading: Promise<void> | null = null
  const preload = () =>
    (loading ??= Promise.all([load(), loadNamespaces(namespaces)]).then(([module]) => {
      loaded = component(module)
    }))
  function Page() {
    if (!loaded) use(preload())
    const Loaded = loaded as ComponentType
    return <Loaded />
  }
  return Object.assign(Page, { preload, namespaces })
}

/** Every page of the app by its path, each loaded with its own code; also what the build pre-renders. */
export const pages: { path: string; Page: LazyPage }[] = [
  {
    path: paths.home,
    Page: page(
      () => import('../features/ideogram/ideogram-training-page.tsx'),
      ['ideogram'],
      (m) => m.IdeogramTrainingPage,
    ),
  },
  ...[paths.descriptors, paths.descriptorTraining].map((path) => ({
    path,
    Page: page(
      () => import('../features/descriptors/descriptor-training-page.tsx'),
      ['descriptors'],
      (m) => m.DescriptorTrainingPage,
    ),
  })),
  {
    path: paths.tachistoscope,
    Page: page(
      () => import('../features/tachistoscope/tachistoscope-page.tsx'),
      ['tachistoscope'],
      (m) => m.TachistoscopePage,
    ),
  },
  {
    path: paths.tachistoscopeAdmin,
    Page: page(
      () => import('../features/tachistoscope/tachistoscope-admin-page.tsx'),
      ['tachistoscope'],
      (m) => m.TachistoscopeAdminPage,
    ),
  },
  {
    path: paths.siderealTime,
    Page: page(
      () => import('../features/sidereal-time/sidereal-time-page.tsx'),
      ['sidereal'],
      (m) => m.SiderealTimePage,
    ),
  },
  {
    path: paths.customDescriptors,
    Page: page(
      () => import('../features/descriptors/custom-descriptors-page.tsx'),
      ['descriptors'],
      (m) => m.CustomDescriptorsPage,
    ),
  },
  {
    path: paths.descriptorManagement,
    Page: page(
      () => import('../features/admin/descriptor-management-page.tsx'),
      ['admin'],
      (m) => m.DescriptorManagementPage,
    ),
  },
  {
    path: paths.pendingDescriptors,
    Page: page(
      () => import('../features/admin/pending-descriptors-page.tsx'),
      ['admin'],
      (m) => m.PendingDescriptorsPage,
    ),
  },
  {
    path: paths.adminPanel,
    Page: page(
      () => import('./routes/admin-panel-route.tsx'),
      ['admin', 'tachistoscope', 'practice'],
      (m) => m.AdminPanelRoute,
    ),
  },
  {
    path: paths.exportData,
    Page: page(
      () => import('../features/descriptors/export-data-page.tsx'),
      ['descriptors'],
      (m) => m.ExportDataPage,
    ),
  },
  {
    path: paths.practice,
    Page: page(
      () => import('../features/practice/practice-start-page.tsx'),
      ['practice'],
      (m) => m.PracticeStartPage,
    ),
  },
  {
    path: paths.practiceSession,
    Page: page(
      () => import('../features/practice/practice-session-page.tsx'),
      ['practice'],
      (m) => m.PracticeSessionPage,
    ),
  },
  {
    path: paths.practiceStats,
    Page: page(
      () => import('../features/practice/practice-stats-page.tsx'),
      ['practice'],
      (m) => m.PracticeStatsPage,
    ),
  },
  {
    path: paths.practiceContributions,
    Page: page(
      () => import('../features/practice/contributions-page.tsx'),
      ['practice'],
      (m) => m.ContributionsPage,
    ),
  },
  {
    path: paths.progress,
    Page: page(
      () => import('../features/descriptors/progress-page.tsx'),
      ['descriptors'],
      (m) => m.ProgressPage,
    ),
  },
  {
    path: paths.settings,
    Page: page(
      () => import('../features/account/settings-page.tsx'),
      ['account'],
      (m) => m.SettingsPage,
    ),
  },
  {
    path: paths.adminTargets,
    Page: page(
      () => import('../features/practice/admin-targets-page.tsx'),
      ['practice'],
      (m) => m.AdminTargetsPage,
    ),
  },
  {
    path: '*',
    Page: page(
      () => import('./routes/not-found.tsx'),
      [],
      (m) => m.NotFoundPage,
    ),
  },
]

/** The page drawn at `pathname` (the last entry, the 404 page, matches every path). */
export function pageAt(pathname: string): LazyPage {
  const found = pages.find(({ path }) => path !== '*' && matchPath(path, pathname) !== null)
  return (found ?? (pages.at(-1) as (typeof pages)[number])).Page
}

/**
 * A page that fails to load or to draw shows RouteError in its place, below the layout, so the
 * header and menu stay usable; the next address starts afresh.
 */
class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A page failed to load or draw:', error, info.componentStack)
  }
  override render() {
    return this.state.failed ? <RouteError /> : this.props.children
  }
}

function PageFrame() {
  const { pathname } = useLocation()
  return (
    <PageErrorBoundary key={pathname}>
      <Outlet />
    </PageErrorBoundary>
  )
}

/** The app's routes, for the browser's router and the build's pre-renderer alike. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route element={<PageFrame />}>
          {pages.map(({ path, Page }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
        </Route>
      </Route>
    </Routes>
  )
}

const history = typeof window === 'undefined' ? null : createBrowserHistory({ v5Compat: true })

/**
 * The browser's router: react-router's BrowserRouter, but the new address is drawn in a
 * transition the app can see, so the header shows progress while a page's code is on its way.
 */
export function AppRouter({ children }: { children: ReactNode }) {
  if (!history) throw new Error('AppRouter runs in a browser')
  const [state, setState] = useState({ action: history.action, location: history.location })
  const [pending, startTransition] = useTransition()
  useLayoutEffect(
    () =>
      history.listen(({ action, location }) =>
        startTransition(() => setState({ action, location })),
      ),
    [],
  )
  return (
    <NavigationPending value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </NavigationPending>
  )
}
