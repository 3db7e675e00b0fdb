import { useEffect, type ComponentType } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { AppLayout } from './layout';
import { Root } from './root';
import { RouteErrorBoundary } from './route-error';
import { lazyNamed } from '../ui/lazy-named';

/*
 * The routes of the user-app spec §2 built so far; every other address goes to /select.
 *
 * Declarative routes (<BrowserRouter> in providers.tsx), not a data router: the app has no loaders,
 * actions, fetchers or blockers, and createBrowserRouter's data layer is ~15 KB gzip of the first
 * screen's budget (docs/development.md "Budgets"). Pages load lazily (React.lazy); the layouts hold the
 * Suspense boundaries, so a navigation keeps the current page until the next one has loaded; a
 * RouteErrorBoundary stands where a data router's errorElement would.
 */
const page = (load: () => Promise<{ Component: ComponentType }>) => lazyNamed(load, 'Component');
/**
 * The grid (Handsontable) is not part of the results and inbox screens' first chunk: it loads beside
 * it, started with the route's own chunk, so that the screen paints its toolbar first without the
 * grid waiting one more round trip behind it.
 */
const withGrid = <T,>(load: () => Promise<T>) => () => {
  import('../features/results/components/results-grid').catch(() => undefined);
  return load();
};
const loaders = {
  login: () => import('./routes/login'),
  direct: () => import('./routes/direct'),
  logout: () => import('./routes/logout'),
  select: () => import('./routes/select'),
  view: () => import('./routes/view'),
  scan: () => import('./routes/scan'),
  results: withGrid(() => import('./routes/results')),
  inbox: withGrid(() => import('./routes/inbox')),
  settings: () => import('./routes/settings'),
  viewer: () => import('./routes/viewer'),
  admin: () => import('./routes/admin-full'),
};
const LoginPage = page(loaders.login);
const DirectPage = page(loaders.direct);
const LogoutPage = page(loaders.logout);
const SelectPage = page(loaders.select);
const ViewPage = page(loaders.view);
const ScanPage = page(loaders.scan);
const ResultsPage = page(loaders.results);
const InboxPage = page(loaders.inbox);
const SettingsPage = page(loaders.settings);
const ViewerPage = page(loaders.viewer);
const AdminFullPage = page(loaders.admin);
const SIGNED_IN_PAGES = new Set(['select', 'view', 'scan', 'results', 'inbox', 'settings', 'viewer', 'admin']);

/**
 * Starts loading the chunk of the page the address will render while start-up still reads the
 * session, the configuration and the language, instead of after the first render: one round trip
 * less before the first screen. React.lazy then finds the module loaded. Called
 * before the session is known (signedIn undefined: the address's own page) and again once it is
 * (a signed-out user of a signed-in page gets the sign-in page).
 */
export function preloadRoute(pathname: string, signedIn?: boolean): void {
  const parts = pathname.split('/');
  const first = parts[1] || 'select';
  const second = parts[2];
  // /results/Inbox is the inbox screen's chunk, not the search results'.
  const name = first === 'results' && second === 'Inbox' ? 'inbox' : first in loaders ? (first as keyof typeof loaders) : 'select';
  const needsSession = SIGNED_IN_PAGES.has(name);
  // A failed load shows where the page renders (RouteErrorBoundary), not here.
  (needsSession && signedIn === false ? loaders.login : loaders[name])().catch(() => undefined);
}

export function AppRoutes() {
  return (
    <Routes>
      <Route
        element={
          <RouteErrorBoundary>
            <Root />
          </RouteErrorBoundary>
        }
      >
        <Route path="login" element={<LoginPage />} />
        <Route path="direct" element={<DirectPage />} />
        <Route path="logout" element={<LogoutPage />} />
        <Route
          element={
            <RouteErrorBoundary>
              <AppLayout />
            </RouteErrorBoundary>
          }
        >
          <Route path="select" element={<SelectPage />} />
          <Route path="view" element={<ViewPage />} />
          <Route path="scan" element={<ScanPage />} />
          {/* A static segment outranks :searchHash, so Inbox never reads as a search hash. */}
          <Route path="results/Inbox" element={<InboxPage />} />
          <Route path="results/:searchHash" element={<ResultsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="viewer/:documentHash" element={<ViewerPage />} />
          <Route path="admin/full" element={<AdminFullPage />} />
        </Route>
        <Route index element={<Navigate to="/select" replace />} />
        <Route path="*" element={<Navigate to="/select" replace />} />
      </Route>
    </Routes>
  );
}

let navigateApp: ((url: string) => void) | null = null;

/** Navigation for code outside React (the error handler): through the router once it is mounted. */
export function navigateTo(url: string): void {
  if (navigateApp) navigateApp(url);
  else window.location.assign(url);
}

/** Mounted once inside the router: hands its navigate function to navigateTo. */
export function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    navigateApp = (url) => void navigate(url);
    return () => {
      navigateApp = null;
    };
  }, [navigate]);
  return null;
}
