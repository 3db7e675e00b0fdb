/** What component tests of the app share: a fake server behind the client's http layer, and the providers. */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createMemoryRouter } from 'react-router-dom';
import { configureHttp } from '../../src/api/http';
import { createQueryClient } from '../../src/app/query-client';
import { getToken } from '../../src/session/session';
import { i18n } from '../../src/i18n/i18n';

export type Answer = (url: URL, init?: RequestInit) => Response | Promise<Response>;

/** Sends every API call to `answer`, with the session's token; `onCall` sees each request. */
export function serveFake(answer: Answer, onCall: (url: URL, init?: RequestInit) => void): void {
  configureHttp({
    baseUrl: () => '',
    token: getToken,
    fetchFn: async (input, init) => {
      const url = new URL(input, 'http://app.test');
      onCall(url, init);
      return answer(url, init);
    },
  });
}

/** Renders a router inside the app's providers (i18n, TanStack Query). */
export function renderRouter(router: ReturnType<typeof createMemoryRouter>, queryClient: QueryClient = createQueryClient()) {
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  const here = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, here, queryClient };
}

/**
 * The notifications panel once open. It is loaded on demand (a chunk of its own): with every CPU
 * busy, its first import here can take longer than findBy's one second.
 */
export function findNotificationsPanel(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'Notifications' }, { timeout: 10_000 });
}
