import { Navigate, createMemoryRouter, Outlet } from 'react-router-dom';
import { configureErrorHandler } from '../../src/api/error-handler';
import { AppLayout } from '../../src/app/layout';
import { DirectPage } from '../../src/app/routes/direct';
import { LoginPage } from '../../src/app/routes/login';
import { LogoutPage } from '../../src/app/routes/logout';
import { SelectPage } from '../../src/app/routes/select';
import { ViewPage } from '../../src/app/routes/view';
import { clearSession } from '../../src/session/session';
import { TokenCapture } from '../../src/app/token-capture';
import { notify } from '../../src/ui/notifications';
import { Toasts } from '../../src/ui/toasts';
import { renderRouter, serveFake, type Answer } from '../support/app-harness';


/** The app's routes (without the PWA banners) in a memory router, against a fake server. */
export function renderApp(path: string, answer: Answer) {
  const calls: { url: URL; init?: RequestInit }[] = [];
  serveFake(answer, (url, init) => calls.push({ url, init }));
  const router = createMemoryRouter(
    [
      {
        element: (
          <TokenCapture>
            <Outlet />
            <Toasts />
          </TokenCapture>
        ),
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'direct', element: <DirectPage /> },
          { path: 'logout', element: <LogoutPage /> },
          {
            element: <AppLayout />,
            children: [
              { path: 'select', element: <SelectPage /> },
              { path: 'view', element: <ViewPage mode="view" /> },
              { path: 'settings', element: <p>settings page</p> },
            ],
          },
          { path: '*', element: <Navigate to="/select" replace /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  configureErrorHandler({
    navigate: (url) => router.navigate(url),
    currentUrl: () => router.state.location.pathname + router.state.location.search,
    notify,
    showLeaseExpired: () => undefined,
    endSession: (nextUrl) => void clearSession(nextUrl),
  });
  return { ...renderRouter(router), calls };
}
