import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router-dom';
import { configureHttp } from '../../src/api/http';
import { createQueryClient } from '../../src/app/query-client';
import { ViewPage } from '../../src/app/routes/view';
import { getToken } from '../../src/app/session';
import { i18n } from '../../src/i18n/i18n';

type Answer = (url: URL, init?: RequestInit) => Response | Promise<Response>;

function ResultsStub() {
  const loc = useLocation();
  return <p data-testid="results">{loc.pathname + loc.search}</p>;
}

/** /view, /scan and a stand-in for /results in a memory router, against a fake server. */
export function renderSearch(path: string, answer: Answer, queryClient: QueryClient = createQueryClient()) {
  const calls: URL[] = [];
  configureHttp({
    baseUrl: () => '',
    token: getToken,
    fetchFn: async (input, init) => {
      const url = new URL(input, 'http://app.test');
      calls.push(url);
      return answer(url, init);
    },
  });
  const router = createMemoryRouter(
    [
      { path: 'view', element: <ViewPage mode="view" /> },
      { path: 'scan', element: <ViewPage mode="scan" /> },
      { path: 'results/:hash', element: <ResultsStub /> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  const here = () => router.state.location.pathname + router.state.location.search;
  return { ...view, router, calls, here, queryClient };
}
