import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AdminChangeListener } from '../features/admin-console/shell/admin-change-listener';
import { AppHeader } from './header';
import { RequireSession } from './require-session';

/** Screens of a signed-in user: the header and the page. */
export function AppLayout() {
  return (
    <RequireSession>
      <div className="app-shell">
        <AppHeader />
        <AdminChangeListener />
        <main className="app-main" id="main">
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </RequireSession>
  );
}
