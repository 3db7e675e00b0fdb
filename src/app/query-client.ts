/**
 * The TanStack Query client. Failed queries and mutations go to the one error handler unless their
 * meta says the screen handles its own errors (or, for a check made in the background, that a missing
 * connection is no news: the app works offline and says so itself); only network failures are retried. What is
 * persisted (through src/pwa/query-persister.ts into Dexie `queryCache`) is every successful query
 * whose meta does not say persist: false.
 */
import { MutationCache, QueryCache, QueryClient, onlineManager, type Query } from '@tanstack/react-query';
import { isApiError } from '../api/api-error';
import { isOnline, subscribeOnline } from '../api/connectivity';
import { handleError } from '../api/error-handler';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { handlesOwnErrors?: boolean; persist?: boolean; /** A background check: a network failure is not reported. */ background?: boolean };
    mutationMeta: { handlesOwnErrors?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  // TanStack Query 5 assumes it is online until an 'offline' event: a page opened with the network
  // off would run every query and fail. It follows the app's connectivity instead (the browser's
  // word and whether calls get through, src/api/connectivity.ts), so queries wait ('paused') and
  // the screens say "not available offline" instead of showing errors, and go on when it returns.
  onlineManager.setEventListener((setOnline) => {
    setOnline(isOnline());
    return subscribeOnline(() => setOnline(isOnline()));
  });
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.handlesOwnErrors) return;
        if (query.meta?.background && isApiError(error) && error.kind === 'network') return;
        handleError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (!mutation.meta?.handlesOwnErrors) handleError(error);
      },
    }),
    defaultOptions: {
      queries: {
        retry: (count, error) => isApiError(error) && error.kind === 'network' && count < 2,
        gcTime: 7 * 24 * 60 * 60 * 1000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export const PERSIST_MAX_AGE = 7 * 24 * 60 * 60 * 1000;

/** Kept on the device: successful queries whose meta does not say persist: false. */
export function shouldPersistQuery(q: Query): boolean {
  return q.state.status === 'success' && q.meta?.persist !== false;
}
