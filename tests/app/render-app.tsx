import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Navigate, RouterProvider, createMemoryRouter, Outlet } from 'react-router-dom';
import { configureErrorHandler } from '../../src/api/error-handler';
import { configureHttp } from '../../src/api/http';
import { AppLayout } from '../../src/app/layout';
import { createQueryClient } from '../../src/app/query-client';
import { DirectPage } from '../../src/app/routes/direct';
import { LoginPage } from '../../src/app/routes/login';
import { LogoutPage } from '../../src/app/routes/logout';
import { SelectPage } from '../../src/app/routes/select';
import { ViewPage } from '../../src/app/routes/view';
import { clearSession, getToken } from '../../src/app/session';
import { TokenCapture } from '../../src/app/token-capture';
import { i18n } from '../../src/i18n/i18n';
import { notify } from '../../src/ui/notifications';
import { Toasts } from '../../src/ui/toasts';

type Answer = (url: URL, init?: RequestInit) => Response | Promise<Response>;

/** The app's routes (without the PWA banners) in a memory router, against a fake server. */
export function renderApp(path: string, answer: Answer) {
  const calls: { url: URL; init?: RequestInit }[] = [];
  configureHttp({
    baseUrl: () => '',
    token: getToken,
    fetchFn: async (input, init) => {
      const url = new URL(input, 'http://app.test');
      calls.push({ url, init });
      return answer(url, init);
    },
  });
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
  const queryClient = createQueryClient();
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  const here = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, calls, here };
}
