import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { db } from '../../src/db/db';
import { queryPersister, dexieQueryStorage } from '../../src/pwa/query-persister';

describe('the query cache persisted in Dexie', () => {
  it('round-trips a client through the queryCache table', async () => {
    const client = new QueryClient();
    client.setQueryData(['databases', 'admin'], [{ Id: 1, Name: 'Demo Archive' }]);
    await queryPersister.persistClient({ timestamp: Date.now(), buster: 'v1', clientState: dehydrate(client) });
    // The persister throttles writes; wait for it to land.
    await new Promise((r) => setTimeout(r, 400));
    expect(await db.queryCache.count()).toBe(1);
    const restored = await queryPersister.restoreClient();
    const query = restored?.clientState.queries.find((q) => JSON.stringify(q.queryKey) === '["databases","admin"]');
    expect(query?.state.data).toEqual([{ Id: 1, Name: 'Demo Archive' }]);
    await queryPersister.removeClient();
    expect(await dexieQueryStorage.getItem('archive-query-cache')).toBeNull();
  });
});
