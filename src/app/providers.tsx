import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { i18n } from '../i18n/i18n';
import { queryPersister } from '../pwa/query-persister';
import { catalogueChangeSeen } from '../api/catalogue-version';
import { invalidateServerData } from '../sync/react/server-data';
import { PERSIST_MAX_AGE, shouldPersistQuery } from './query-client';
import { AppRoutes, NavigationBridge } from './router';

export function AppProviders({ queryClient }: { queryClient: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <PersistQueryClientProvider
        client={queryClient}
        persistOptions={{
          persister: queryPersister,
          maxAge: PERSIST_MAX_AGE,
          buster: 'v1',
          dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
        }}
        // The catalogue changed while the kept cache was being restored: what it restored is older.
        onSuccess={() => {
          if (catalogueChangeSeen()) void invalidateServerData(queryClient);
        }}
      >
        <BrowserRouter>
          <NavigationBridge />
          <AppRoutes />
        </BrowserRouter>
      </PersistQueryClientProvider>
    </I18nextProvider>
  );
}
