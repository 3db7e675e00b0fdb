import { lazy, useEffect, type ComponentType } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { AppLayout } from './layout';
import { Root } from './root';
import { RouteErrorBoundary } from './route-error';

/*
 * The routes of user-app.md §2 built so far; every other address goes to /select.
 *
 * Declarative routes (<BrowserRouter> in providers.tsx), not a data router: the app has no loaders,
 * actions, fetchers or blockers, and createBrowserRouter's data layer is ~15 KB gzip of the first
 * screen's budget (ARCHITECTURE.md "Budgets"). Pages load lazily (React.lazy); the layouts hold the
 * Suspense boundaries, so a navigation keeps the current page until the next one has loaded; a
 * RouteErrorBoundary stands where a data router's errorElement would.
 */
const page = (load: () => Promise<{ Component: ComponentType }>) => lazy(() => load().then((m) => ({ default: m.Component })));
const LoginPage = page(() => import('./routes/login'));
const DirectPage = page(() => import('./routes/direct'));
const LogoutPage = page(() => import('./routes/logout'));
const SelectPage = page(() => import('./routes/select'));
const ViewPage = page(() => import('./routes/view'));
const ScanPage = page(() => import('./routes/scan'));
const ResultsPage = page(() => import('./routes/results'));
const SettingsPage = page(() => import('./routes/settings'));

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
          <Route path="results/:searchHash" element={<ResultsPage />} />
          <Route path="settings" element={<SettingsPage />} />
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
