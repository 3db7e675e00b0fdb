/**
 * GET api/inboxes (server/routes/inboxes.ts): the user's inboxes with counts and rights, and one
 * inbox's files, paged and sorted, with inbox rights enforced (the user-app spec §7; the archive-ops spec §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxFiles, InboxList, inboxPaths } from '../../src/api/inboxes';
import { SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const I = SEED_IDS.inbox;
let s: TestServer;
const tokens: Record<string, string> = {};
/** The seeded files of each inbox, by name. */
const seeded: Record<number, { file_name: string; date_created: Date }[]> = {};

beforeAll(async () => {
  s = await startServer();
  for (const u of ['user', 'viewer', 'clerk', 'admin']) tokens[u] = await signIn(s, u);
  const r = await s.store.query<{ inbox_id: number; file_name: string; date_created: Date }>('SELECT inbox_id, file_name, date_created FROM inbox_files ORDER BY file_name');
  for (const f of r.rows) (seeded[Number(f.inbox_id)] ??= []).push(f);
  expect(seeded[I.scans]!.length).toBeGreaterThan(5);
  expect(seeded[I.mailroom]!.length).toBeGreaterThan(1);
});
afterAll(async () => {
  await s?.close();
});

const get = (user: string, query: Record<string, string | number> = {}) =>
  s.app.inject({ method: 'GET', url: inboxPaths.list, query: { ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) }, headers: { 'auth-token': tokens[user]! } });

describe('GET api/inboxes: the list', () => {
  it('lists the inboxes the user may view, with their file counts and the user\'s rights', async () => {
    const r = await get('user');
    expect(r.statusCode).toBe(200);
    const list = InboxList.parse(r.json());
    expect(list.map((i) => [i.Name, i.Count, i.Permissions])).toEqual([
      ['Mailroom', seeded[I.mailroom]!.length, 5],
      ['Scans', seeded[I.scans]!.length, 5],
    ]);
    expect(list.every((i) => i.DatabaseId === SEED_IDS.db.demo)).toBe(true);
  });

  it('rights come from the user and their groups: view only for viewer, nothing for clerk', async () => {
    expect(InboxList.parse((await get('viewer')).json()).map((i) => [i.Id, i.Permissions])).toEqual([[I.scans, 1]]);
    expect(InboxList.parse((await get('clerk')).json())).toEqual([]);
    // admin has no inbox permission of its own: the administrators group gives both.
    expect(InboxList.parse((await get('admin')).json()).map((i) => i.Id).sort()).toEqual([I.scans, I.mailroom].sort());
  });

  it('needs a licence token', async () => {
    const r = await s.app.inject({ method: 'GET', url: inboxPaths.list });
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
  });
});

describe('GET api/inboxes?Id=: one inbox\'s files', () => {
  it('answers the first 25 by file name by default, with Count and every spec column', async () => {
    const r = await get('user', { Id: I.scans });
    expect(r.statusCode).toBe(200);
    const page = InboxFiles.parse(r.json());
    const names = seeded[I.scans]!.map((f) => f.file_name);
    expect(page.Count).toBe(names.length);
    expect(page.Files.map((f) => f.FileName)).toEqual(names.slice(0, 25));
    const first = page.Files[0]!;
    expect(first).toMatchObject({ InboxId: I.scans, Path: first.FileName, Permissions: 5 });
    expect(first.FileType).toMatch(/^(PDF|TIF)$/);
    expect(Date.parse(first.DateCreated!)).toBe(seeded[I.scans]![0]!.date_created.getTime());
    expect(first.DateModified).toBeTruthy();
    expect(first.PageCount).toBeGreaterThan(0);
  });

  it('pages with pageNumber and numberOfDocuments', async () => {
    const names = seeded[I.scans]!.map((f) => f.file_name);
    const p2 = InboxFiles.parse((await get('user', { Id: I.scans, pageNumber: 2, numberOfDocuments: 3 })).json());
    expect(p2.Count).toBe(names.length);
    expect(p2.Files.map((f) => f.FileName)).toEqual(names.slice(3, 6));
    const past = InboxFiles.parse((await get('user', { Id: I.scans, pageNumber: 99, numberOfDocuments: 3 })).json());
    expect(past).toMatchObject({ Count: names.length, Files: [] });
  });

  it('sorts by a fixed column, either way', async () => {
    const newest = [...seeded[I.scans]!].sort((a, b) => b.date_created.getTime() - a.date_created.getTime()).map((f) => f.file_name);
    const r = InboxFiles.parse((await get('user', { Id: I.scans, sort: 'DateCreated:desc' })).json());
    expect(r.Files.map((f) => f.FileName)).toEqual(newest);
    const byName = InboxFiles.parse((await get('user', { Id: I.scans, sort: 'FileName:desc', numberOfDocuments: 2 })).json());
    expect(byName.Files.map((f) => f.FileName)).toEqual([...seeded[I.scans]!.map((f) => f.file_name)].reverse().slice(0, 2));
  });

  it('a viewer gets the files of an inbox it may view, with view rights only', async () => {
    const r = InboxFiles.parse((await get('viewer', { Id: I.scans, numberOfDocuments: 1 })).json());
    expect(r.Permissions).toBe(1);
    expect(r.Files[0]!.Permissions).toBe(1);
  });

  it('refuses an inbox without view right (403) and an unknown one (404)', async () => {
    const denied = await get('viewer', { Id: I.mailroom });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' });
    expect((await get('clerk', { Id: I.scans })).statusCode).toBe(403);
    const unknown = await get('user', { Id: 999 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ Key: 'ERROR_NOT_FOUND' });
  });

  it('refuses bad paging and sorting (400)', async () => {
    const bad: Record<string, string | number>[] = [{ pageNumber: 0 }, { numberOfDocuments: 0 }, { numberOfDocuments: 10_001 }, { sort: 'Secret:asc' }, { sort: 'FileName:up' }, { pageNumber: 'x' }];
    for (const q of bad) {
      const r = await get('user', { Id: I.scans, ...q });
      expect(r.statusCode, JSON.stringify(q)).toBe(400);
      expect(r.json()).toMatchObject({ Key: 'ERROR_INCORRECT_PARAMETERS' });
    }
  });
});
