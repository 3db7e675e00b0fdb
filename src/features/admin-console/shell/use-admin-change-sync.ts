/**
 * What the console changes takes effect in the user app at once (issue 13 item 7): after every
 * admin write that succeeded (src/api/admin-client.ts onAdminChange) the user app's cached metadata
 * (archives, archive fields, searches, databases, lists: every query but the console's own and the
 * user's rights) is marked stale, so the next screen that shows it fetches it again; screens shown
 * now refetch at once. Other tabs of this browser hear it on a BroadcastChannel and do the same.
 * Other devices hear it through the Catalogue-Version header of their next call (src/api/catalogue-version.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onAdminChange } from '../../../api/admin-client';
import { invalidateServerData } from '../../../sync/react/server-data';

const CHANNEL = 'admin-console-changes';

const channel = (): BroadcastChannel | null => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL));

/** In the console: a write drops this tab's caches and tells the other tabs. */
export function useAdminChangeSync(): void {
  const client = useQueryClient();
  useEffect(() => {
    const ch = channel();
    const off = onAdminChange((change) => {
      void invalidateServerData(client);
      ch?.postMessage({ path: change.path });
    });
    return () => {
      off();
      ch?.close();
    };
  }, [client]);
}

/** In every tab of the app: another tab's console write drops this tab's caches. */
export function useAdminChangeListener(): void {
  const client = useQueryClient();
  useEffect(() => {
    const ch = channel();
    if (!ch) return;
    ch.onmessage = () => void invalidateServerData(client);
    return () => ch.close();
  }, [client]);
}
