/**
 * Stored grid state (the user-app spec §3 "Stored grid state per grid"): Dexie `gridState`, one record per
 * grid keyed `${db}|search|${searchId}|${archiveId}`, holding the columns (order, width, hidden,
 * pinned), the sort and the page size. Restored on the next visit and after a reload; "Restore
 * columns" and an invalid saved sort (DISCARDING_INVALID_GRID_SORT_MSG) delete it.
 */
import * as z from 'zod/mini';
import type { ArchiveDb, GridState } from '../../db/db';

const StoredState = z.object({
  key: z.string(),
  columns: z.catch(
    z.array(
      z.object({
        id: z.string(),
        width: z.optional(z.number().check(z.positive())),
        hidden: z.optional(z.boolean()),
        pinned: z.optional(z.boolean()),
        order: z.optional(z.number()),
      }),
    ),
    [],
  ),
  sort: z.catch(z.array(z.object({ column: z.string(), direction: z.enum(['asc', 'desc']) })), []),
  pageSize: z.catch(z.int().check(z.positive()), 0),
  updatedAt: z.catch(z.number(), 0),
});

export function searchGridStateKey(db: number, searchId: number, archiveId: number): string {
  return `${db}|search|${searchId}|${archiveId}`;
}

/** Reads a grid's state; a damaged record reads as absent parts (never throws on bad data). */
export async function loadGridState(db: ArchiveDb, key: string): Promise<GridState | undefined> {
  const rec = await db.gridState.get(key);
  if (!rec) return undefined;
  const parsed = StoredState.safeParse(rec);
  return parsed.success ? parsed.data : undefined;
}

export async function saveGridState(db: ArchiveDb, key: string, patch: Partial<Omit<GridState, 'key' | 'updatedAt'>>, now = Date.now()): Promise<GridState> {
  return db.transaction('rw', db.gridState, async () => {
    const prev = await loadGridState(db, key);
    const next: GridState = {
      key,
      columns: patch.columns ?? prev?.columns ?? [],
      sort: patch.sort ?? prev?.sort ?? [],
      pageSize: patch.pageSize ?? prev?.pageSize ?? 0,
      updatedAt: now,
    };
    await db.gridState.put(next);
    return next;
  });
}

export async function deleteGridState(db: ArchiveDb, key: string): Promise<void> {
  await db.gridState.delete(key);
}
