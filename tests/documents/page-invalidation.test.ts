import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ArchiveDb } from '../../src/db/db';
import { clearArchivePages, pageKey, searchGridKey, writePage } from '../../src/features/results/page-cache';

const parts = (searchId: number, archiveId: number, page: number) => ({ db: 1, gridKey: searchGridKey(searchId, archiveId), criteria: '', sort: '', tab: null, pageSize: 25, page });

describe('cached pages after a copy, move or delete job', () => {
  it("drops every search's cached pages of the archives the job changed, except the page on screen", async () => {
    const database = new ArchiveDb(`pages-${Math.random()}`);
    for (const [s, a, p] of [[2, 6, 1], [2, 6, 2], [5, 6, 1], [2, 7, 1], [2, 16, 1], [2, 5, 1]] as const) await writePage(database, parts(s, a, p), { Count: 1, Docs: [] });
    const keep = pageKey(parts(2, 6, 1));
    const n = await clearArchivePages(database, [6, 5], keep);
    expect(n).toBe(3);
    expect((await database.pages.toCollection().primaryKeys()).sort()).toEqual([keep, pageKey(parts(2, 16, 1)), pageKey(parts(2, 7, 1))].sort());
    expect(await clearArchivePages(database, [])).toBe(0);
  });
});
