import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, useLocation } from 'react-router-dom';
import { createQueryClient } from '../../src/app/query-client';
import { ViewPage } from '../../src/app/routes/view';
import { renderRouter, serveFake, type Answer } from '../support/app-harness';

function ResultsStub() {
  const loc = useLocation();
  return <p data-testid="results">{loc.pathname + loc.search}</p>;
}

/** /view, /scan and a stand-in for /results in a memory router, against a fake server. */
export function renderSearch(path: string, answer: Answer, queryClient: QueryClient = createQueryClient()) {
  const calls: URL[] = [];
  serveFake(answer, (url) => calls.push(url));
  const router = createMemoryRouter(
    [
      { path: 'view', element: <ViewPage mode="view" /> },
      { path: 'scan', element: <ViewPage mode="scan" /> },
      { path: 'results/:hash', element: <ResultsStub /> },
    ],
    { initialEntries: [path] },
  );
  return { ...renderRouter(router, queryClient), calls };
}
