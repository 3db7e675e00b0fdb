import 'fake-indexeddb/auto';
import { describe, expect, it, beforeEach } from 'vitest';
import { ArchiveDb } from '../../src/db/db';

describe('the Dexie schema', () => {
  let db: ArchiveDb;
  beforeEach(async () => {
    db = new ArchiveDb(`test-${Math.random()}`);
    await db.open();
  });

  it('holds every table docs/architecture.md names', () => {
    expect(db.tables.map((t) => t.name).sort()).toEqual(
      ['alerts', 'gridState', 'jobs', 'languages', 'outbox', 'pages', 'pinParts', 'pins', 'queryCache', 'settings', 'uploads'].sort(),
    );
  });

  it('orders outbox entries by their sequence, not their time, and refuses a reused idempotency key', async () => {
    const base = { kind: 'fieldData', method: 'PUT' as const, path: '/api/x', target: 'doc-1', state: 'queued' as const, attempts: 0, updatedAt: 0 };
    await db.outbox.add({ ...base, id: 'b', createdAt: 200 });
    await db.outbox.add({ ...base, id: 'a', createdAt: 100 });
    const ordered = await db.outbox.where('[target+seq]').between(['doc-1', 0], ['doc-1', Infinity]).toArray();
    expect(ordered.map((e) => e.id)).toEqual(['b', 'a']);
    await expect(db.outbox.add({ ...base, id: 'a', createdAt: 300 })).rejects.toThrow();
  });

  it('keeps a file in the uploads table as the Blob itself', async () => {
    const file = new Blob(['%PDF-1.7 hello'], { type: 'application/pdf' });
    await db.uploads.put({
      id: 'u1', dbId: 1, target: { DatabaseID: 1, ArchiveID: 2 }, file, fileName: 'a.pdf', size: file.size, type: 'application/pdf',
      attempt: 0, nextIndex: 0, chunkSize: 1048576, chunkCount: 1, highestSent: -1, resent: 0, state: 'queued', createdAt: 1, updatedAt: 1,
    });
    const back = await db.uploads.get('u1');
    expect(back?.size).toBe(file.size);
    expect(back?.target).toEqual({ DatabaseID: 1, ArchiveID: 2 });
    expect(back?.file).toBeInstanceOf(Blob);
  });

  it('finds the least recently used cached pages first', async () => {
    for (const [key, lastUsed] of [['p1', 30], ['p2', 10], ['p3', 20]] as const) {
      await db.pages.put({ key, gridKey: 'g', page: 1, pageSize: 25, data: {}, fetchedAt: 0, lastUsed, bytes: 10 });
    }
    expect((await db.pages.orderBy('lastUsed').limit(2).primaryKeys())).toEqual(['p2', 'p3']);
  });
});
