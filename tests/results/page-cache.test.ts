import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { ArchiveDb } from '../../src/db/db';
import {
  cacheBytes, clearGridPages, evictPages, pageAvailability, pageKey, readPage, requestPersistentStorage, resetPersistRequestForTests,
  searchGridKey, touchPage, writePage, type PageKeyParts,
} from '../../src/features/results/page-cache';

let n = 0;
let db: ArchiveDb;
beforeEach(async () => {
  db = new ArchiveDb(`page-cache-${++n}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

const parts = (page: number, over: Partial<PageKeyParts> = {}): PageKeyParts => ({
  db: 1, gridKey: searchGridKey(2, 3), criteria: '[{"ID":1,"VAL":"x"}]', sort: '5:asc', tab: null, pageSize: 25, page, ...over,
});
const resultSet = (rows: number) => ({ Count: 100, Docs: Array.from({ length: rows }, (_, i) => ({ Id: i, Hash: `h${i}`, Fields: [{ ID: 5, VAL: `v${i}` }] })), Fields: [] });

describe('page cache', () => {
  it('keys pages by db, grid, criteria hash, sort, tab, size and page — never a token', () => {
    const k = pageKey(parts(2));
    expect(k.startsWith('1|search|2|3|')).toBe(true);
    expect(k.endsWith('|5:asc||25|2')).toBe(true);
    expect(k).not.toContain('VAL');
    expect(pageKey(parts(2, { criteria: '[]' }))).not.toBe(k);
    expect(pageKey(parts(2, { tab: 4 }))).not.toBe(k);
    expect(pageKey(parts(2, { sort: '5:desc' }))).not.toBe(k);
  });

  it('writes a page as one record and reads it back with its fetch time', async () => {
    await writePage(db, parts(1), resultSet(25), { now: 1000 });
    const rec = await readPage(db, pageKey(parts(1)));
    expect(rec?.fetchedAt).toBe(1000);
    expect(rec?.lastUsed).toBe(1000);
    expect(rec?.bytes).toBeGreaterThan(0);
    expect((rec?.data as { Docs: unknown[] }).Docs).toHaveLength(25);
    expect(await db.pages.count()).toBe(1);
    await touchPage(db, pageKey(parts(1)), 5000);
    expect((await readPage(db, pageKey(parts(1))))?.lastUsed).toBe(5000);
  });

  it('evicts least-recently-used pages over the limit, never the page just written', async () => {
    await writePage(db, parts(1), resultSet(10), { now: 1, bytes: 400 });
    await writePage(db, parts(2), resultSet(10), { now: 2, bytes: 400 });
    await writePage(db, parts(3), resultSet(10), { now: 3, bytes: 400 });
    await touchPage(db, pageKey(parts(1)), 10);
    expect(await cacheBytes(db)).toBe(1200);
    const evicted = await writePage(db, parts(4), resultSet(10), { now: 11, bytes: 400, limitBytes: 1000 });
    expect(evicted).toEqual([pageKey(parts(2)), pageKey(parts(3))]);
    expect((await db.pages.toCollection().primaryKeys()).sort()).toEqual([pageKey(parts(1)), pageKey(parts(4))].sort());
    expect(await evictPages(db, 100, pageKey(parts(4)))).toEqual([pageKey(parts(1))]);
    expect(await db.pages.count()).toBe(1);
  });

  it('offline: a page seen before is available, one never seen is not', async () => {
    await writePage(db, parts(1), resultSet(5), { now: 42 });
    const seen = await readPage(db, pageKey(parts(1)));
    const never = await readPage(db, pageKey(parts(9)));
    expect(pageAvailability(seen, true)).toMatchObject({ state: 'cached', offline: true });
    expect(pageAvailability(never, true)).toEqual({ state: 'unavailableOffline' });
    expect(pageAvailability(never, false)).toEqual({ state: 'loading' });
  });

  it('clears one grid', async () => {
    await writePage(db, parts(1), resultSet(1));
    await writePage(db, parts(1, { gridKey: searchGridKey(2, 4) }), resultSet(1));
    expect(await clearGridPages(db, searchGridKey(2, 3))).toBe(1);
    expect(await db.pages.count()).toBe(1);
  });

  it('asks for persistent storage once', async () => {
    resetPersistRequestForTests();
    let asked = 0;
    const storage = { persisted: async () => false, persist: async () => (++asked, true) };
    expect(await requestPersistentStorage(storage)).toBe(true);
    expect(await requestPersistentStorage(storage)).toBe(false);
    expect(asked).toBe(1);
  });
});

describe('Dexie version 2 upgrade', () => {
  it('keeps version-1 pages and fills bytes/lastUsed so the [lastUsed+bytes] index holds them', async () => {
    const name = `upgrade-${++n}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ pages: 'key, gridKey, lastUsed', gridState: 'key', settings: 'key', languages: 'code', queryCache: 'key', outbox: '++seq, &id, target, state, [target+seq]', jobs: 'id, state, nextPollAt', uploads: 'id, state, createdAt', alerts: '++id, createdAt, seenAt' });
    await v1.open();
    await v1.table('pages').bulkPut([
      { key: 'a', gridKey: 'g', page: 1, pageSize: 25, data: { Count: 1, Docs: [] }, fetchedAt: 5, lastUsed: 7, bytes: 100 },
      { key: 'b', gridKey: 'g', page: 2, pageSize: 25, data: { Count: 1, Docs: [] }, fetchedAt: 6 },
    ]);
    v1.close();
    const v2 = new ArchiveDb(name);
    await v2.open();
    expect(v2.verno).toBeGreaterThanOrEqual(2);
    const b = await v2.pages.get('b');
    expect(b?.bytes).toBe(JSON.stringify({ Count: 1, Docs: [] }).length * 2);
    expect(b?.lastUsed).toBe(6);
    expect(await cacheBytes(v2)).toBe(100 + (b?.bytes ?? 0));
    v2.close();
    await Dexie.delete(name);
  });
});

describe('packed page records', () => {
  const docs = [
    { Id: 1, Hash: 'a', ArchiveId: 3, FileName: null, Permissions: 513, Hits: null, Version: null, ThumbVersion: '0a1b2c3d4e5f6a7b.0.0', Fields: [{ ID: 5, VAL: 'x' }, { ID: 6, VAL: 'first', MVAL: ['first', 'second'] }] },
    { Id: 2, Hash: 'b', ArchiveId: 3, FileName: 'b.pdf', Permissions: 1, Hits: 4, Version: '2', ThumbVersion: null, Fields: [{ ID: 5, VAL: '' }, { ID: 6, VAL: null }] },
    { Id: 3, Hash: 'c\u001fd', Rev: 7, Fields: [{ ID: 5 }, { ID: 6, VAL: 'y', MVAL: null }] },
  ];
  it('stores the docs as columns and reads back the same documents', async () => {
    const data = { Count: 3, Docs: docs, Fields: [{ ID: 5 }], Terms: [], Permissions: 1 };
    await writePage(db, parts(1), data);
    const stored = await db.pages.get(pageKey(parts(1)));
    expect((stored?.data as { Docs?: unknown }).Docs).toBeUndefined();
    const rec = await readPage(db, pageKey(parts(1)));
    const back = rec?.data as { Docs: { Id: number; Fields: unknown[] }[] };
    expect(JSON.parse(JSON.stringify(back))).toEqual(data);
    expect(back.Docs.map((d) => ({ ...d, Fields: d.Fields }))).toEqual(docs);
    expect(rec?.data).toMatchObject({ Count: 3, Terms: [], Permissions: 1 });
  });
  it('keeps pages that do not fit the columns as they came, and reads records stored before packing', async () => {
    const odd = { Count: 1, Docs: [{ Id: 1, Hash: 'a', Extra: { x: 1 }, Fields: [{ ID: 5, VAL: 'x' }] }] };
    await writePage(db, parts(1), odd);
    expect((await db.pages.get(pageKey(parts(1))))?.data).toEqual(odd);
    expect((await readPage(db, pageKey(parts(1))))?.data).toEqual(odd);
  });
  it('gives back the page read before while the stored page is the same fetch, and the new fetch once written', async () => {
    await writePage(db, parts(1), resultSet(3), { now: 1000 });
    const first = await readPage(db, pageKey(parts(1)));
    await touchPage(db, pageKey(parts(1)), 2000);
    expect(await readPage(db, pageKey(parts(1)), first)).toBe(first);
    expect(await readPage(db, pageKey(parts(2)), first)).toBeUndefined();
    await writePage(db, parts(1), resultSet(2), { now: 3000 });
    const next = await readPage(db, pageKey(parts(1)), first);
    expect(next).not.toBe(first);
    expect(next?.fetchedAt).toBe(3000);
    expect((next?.data as { Docs: unknown[] }).Docs).toHaveLength(2);
  });
  it('treats a malformed packed record as not cached', async () => {
    await writePage(db, parts(1), resultSet(3));
    await db.pages.update(pageKey(parts(1)), { data: { Count: 3, PackedDocs: { v: 1, n: 3, metaKeys: [], meta: [], fieldIds: [5], vals: [{ s: 'only-one' }], mvals: [null] } } });
    expect(await readPage(db, pageKey(parts(1)))).toBeUndefined();
  });
});
