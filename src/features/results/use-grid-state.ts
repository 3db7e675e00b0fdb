import { useCallback, useEffect, useState } from 'react';
import { db as appDb, type GridState } from '../../db/db';
import { deleteGridState, loadGridState, saveGridState } from './grid-state';

/**
 * A grid's stored state, held in React state for instant feedback and written through to Dexie
 * (grid-state.ts). `state` is undefined until the stored record has been read for this key.
 */
export function useGridState(key: string) {
  const [held, setHeld] = useState<{ key: string; state: GridState | null } | null>(null);

  useEffect(() => {
    let alive = true;
    void loadGridState(appDb, key)
      .catch(() => undefined)
      .then((s) => {
        if (alive) setHeld({ key, state: s ?? null });
      });
    return () => {
      alive = false;
    };
  }, [key]);

  const update = useCallback(
    (patch: Partial<Pick<GridState, 'columns' | 'sort' | 'pageSize'>>) => {
      setHeld((prev) => {
        const base = prev?.key === key ? prev.state : null;
        return {
          key,
          state: {
            key,
            columns: patch.columns ?? base?.columns ?? [],
            sort: patch.sort ?? base?.sort ?? [],
            pageSize: patch.pageSize ?? base?.pageSize ?? 0,
            updatedAt: Date.now(),
          },
        };
      });
      void saveGridState(appDb, key, patch).catch((e: unknown) => console.error('grid state not saved', e));
    },
    [key],
  );

  const reset = useCallback(async () => {
    await deleteGridState(appDb, key).catch(() => undefined);
    setHeld({ key, state: null });
  }, [key]);

  const ready = held?.key === key;
  return { ready, state: ready ? held.state : null, update, reset };
}
