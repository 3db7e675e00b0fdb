import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ArchiveDb } from '../../src/db/db';
import { deleteGridState, loadGridState, saveGridState, searchGridStateKey } from '../../src/features/results/grid-state';

describe('grid state', () => {
  it('stores columns, sort and page size per grid and restores them', async () => {
    const db = new ArchiveDb('grid-state-1');
    const key = searchGridStateKey(1, 2, 3);
    expect(key).toBe('1|search|2|3');
    expect(await loadGridState(db, key)).toBeUndefined();
    await saveGridState(db, key, { columns: [{ id: '5', width: 150, pinned: true, order: 0 }] }, 10);
    await saveGridState(db, key, { sort: [{ column: '5', direction: 'desc' }] }, 11);
    await saveGridState(db, key, { pageSize: 100 }, 12);
    // A new connection (a reload) reads the same state.
    db.close();
    const again = new ArchiveDb('grid-state-1');
    expect(await loadGridState(again, key)).toEqual({
      key,
      columns: [{ id: '5', width: 150, pinned: true, order: 0 }],
      sort: [{ column: '5', direction: 'desc' }],
      pageSize: 100,
      updatedAt: 12,
    });
    expect(await loadGridState(again, searchGridStateKey(1, 2, 4))).toBeUndefined();
    await deleteGridState(again, key);
    expect(await loadGridState(again, key)).toBeUndefined();
    again.close();
    await Dexie.delete('grid-state-1');
  });

  it('reads a damaged record as defaults instead of failing', async () => {
    const db = new ArchiveDb('grid-state-2');
    await db.gridState.put({ key: 'k', columns: 'nonsense', sort: [{ column: 1 }], pageSize: -3, updatedAt: 'x' } as never);
    expect(await loadGridState(db, 'k')).toEqual({ key: 'k', columns: [], sort: [], pageSize: 0, updatedAt: 0 });
    db.close();
    await Dexie.delete('grid-state-2');
  });
});
