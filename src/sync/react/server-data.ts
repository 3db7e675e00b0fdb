/**
 * Everything the app keeps of the server's data, read again: for when the catalogue changed (an
 * administrator's write here, in another tab, or seen on another device through the
 * Catalogue-Version header, src/api/catalogue-version.ts).
 */
import type { QueryClient } from '@tanstack/react-query';

/** The console's own queries and the user's rights and licence: each screen that owns them reads them again itself. */
const KEPT_ON_CHANGE = new Set(['admin-console', 'admin', 'licence']);

/** Every other query is marked stale: screens shown now read theirs again at once, the rest when next shown. */
export function invalidateServerData(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => !KEPT_ON_CHANGE.has(String(q.queryKey[0])) });
}
