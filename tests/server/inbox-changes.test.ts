/**
 * The inbox calls that change files (server/routes/inbox-changes.ts; the archive-ops spec §7): move
 * (keep or delete the original), rename, delete, send to an archive with index values, an archive
 * document put into an inbox, the zip export, the thumbnail and the file's bytes; rights (view 1,
 * edit 4, add 2 on the destination archive, licence type 4 refused for every change) and the
 * Idempotency-Key (also on the move, a GET).
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxFiles, InboxFileMoved, InboxSent, inboxPaths } from '../../src/api/inboxes';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type TestServer } from './helpers';

const I = SEED_IDS.inbox;
const A = SEED_IDS.archive;
const DB = SEED_IDS.db.demo;
let s: TestServer;
const tokens: Record<string, string> = {};

interface Row {
  id: number;
  inbox_id: number;
  file_name: string;
  sha256: string;
  size: number;
  page_count: number;
  date_created: Date;
  date_modified: Date;
}
const rowsOf = async (inbox: number) =>
  (await s.store.query<Row>('SELECT id, inbox_id, file_name, sha256, size, page_count, date_created, date_modified FROM inbox_files WHERE inbox_id = $1 ORDER BY file_name', [inbox])).rows.map((r) => ({ ...r, id: Number(r.id), size: Number(r.size) }));
let spare: Row[] = [];
/** A seeded Scans file no other test of this file uses. */
const take = () => {
  const f = spare.shift();
  if (!f) throw new Error('no spare inbox file');
  return f;
};

beforeAll(async () => {
  s = await startServer();
  for (const u of ['user', 'viewer', 'admin']) tokens[u] = await signIn(s, u);
  spare = await rowsOf(I.scans);
  // The viewer (read-only licence) gets edit on Scans too: its licence alone must refuse the changes.
  await s.store.query('UPDATE inbox_permissions SET rights = 5 WHERE inbox_id = $1 AND user_id = $2', [I.scans, SEED_IDS.user.viewer]);
});
afterAll(async () => {
  await s?.close();
});

const h = (user: string, key?: string) => ({ 'auth-token': tokens[user]!, ...(key ? { 'idempotency-key': key } : {}) });
const q = (o: Record<string, string | number | boolean>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

describe('move between inboxes', () => {
  it('moves the file (same bytes and dates), and a repeat with the same Idempotency-Key does not move it again', async () => {
    const f = take();
    const key = 'move-test-1';
    const call = () => s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: q({ FilePath: f.file_name, targetInboxId: I.mailroom, deleteOriginal: true }), headers: h('user', key) });
    const r = await call();
    expect(r.statusCode, r.body).toBe(200);
    expect(InboxFileMoved.parse(r.json())).toEqual({ InboxId: I.mailroom, FileName: f.file_name });
    const moved = (await rowsOf(I.mailroom)).find((x) => x.file_name === f.file_name)!;
    expect(moved).toMatchObject({ id: f.id, sha256: f.sha256, size: f.size });
    expect(moved.date_modified.getTime()).toBe(f.date_modified.getTime());
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).not.toContain(f.file_name);
    const again = await call();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await rowsOf(I.mailroom)).filter((x) => x.sha256 === f.sha256 && x.file_name.startsWith(f.file_name.replace(/\..*$/, '')))).toHaveLength(1);
  });

  it('deleteOriginal=false keeps the original; a name taken in the target gets " (2)"', async () => {
    const f = take();
    const copy = async () => s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: q({ FilePath: f.file_name, targetInboxId: I.mailroom, deleteOriginal: false }), headers: h('user') });
    expect(InboxFileMoved.parse((await copy()).json()).FileName).toBe(f.file_name);
    const second = InboxFileMoved.parse((await copy()).json());
    expect(second.FileName).toBe(f.file_name.replace(/(\.[^.]+)$/, ' (2)$1'));
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).toContain(f.file_name);
  });

  it('needs edit on both inboxes: 404 for an unknown target, 403 for the viewer, 404 for a file not there', async () => {
    const f = take();
    spare.unshift(f);
    const r1 = await s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: q({ FilePath: f.file_name, targetInboxId: 999 }), headers: h('user') });
    expect(r1.statusCode).toBe(404);
    const r2 = await s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: q({ FilePath: f.file_name, targetInboxId: I.mailroom }), headers: h('viewer') });
    expect(r2.statusCode).toBe(403);
    const r3 = await s.app.inject({ method: 'GET', url: inboxPaths.one(I.scans), query: q({ FilePath: 'no-such-file.pdf', targetInboxId: I.mailroom }), headers: h('user') });
    expect(r3.statusCode).toBe(404);
  });
});

describe('rename and delete', () => {
  it('renames, refuses a name another file has (409), and the read-only licence (403) even with the edit bit', async () => {
    const [f, g] = [take(), take()];
    const rename = (user: string, from: string, to: string) => s.app.inject({ method: 'POST', url: inboxPaths.one(I.scans), query: q({ FilePath: from, newFileName: to }), headers: h(user) });
    expect((await rename('viewer', f.file_name, 'viewer.pdf')).statusCode).toBe(403);
    const r = await rename('user', f.file_name, 'Renamed invoice.pdf');
    expect(r.statusCode, r.body).toBe(200);
    expect(InboxFileMoved.parse(r.json()).FileName).toBe('Renamed invoice.pdf');
    const conflict = await rename('user', 'Renamed invoice.pdf', g.file_name);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ Key: 'INBOX_FILE_EXISTS' });
    const names = (await rowsOf(I.scans)).map((x) => x.file_name);
    expect(names).toContain('Renamed invoice.pdf');
    expect(names).toContain(g.file_name);
    spare.push(g);
  });

  it('deletes; the viewer may not; a second delete is 404', async () => {
    const f = take();
    const del = (user: string) => s.app.inject({ method: 'DELETE', url: inboxPaths.one(I.scans), query: q({ FilePath: f.file_name }), headers: h(user) });
    expect((await del('viewer')).statusCode).toBe(403);
    expect((await del('user')).statusCode).toBe(200);
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).not.toContain(f.file_name);
    expect((await del('user')).statusCode).toBe(404);
  });
});

describe('send to an archive', () => {
  const send = (user: string, fileName: string, archive: number, fields: unknown[], key?: string) =>
    s.app.inject({
      method: 'POST',
      url: inboxPaths.one(I.scans),
      query: q({ fileName, destinationDatabaseId: DB, destinationArchiveId: archive }),
      payload: { Fields: fields },
      headers: h(user, key),
    });

  it('makes a document with the file, the values and the system fields, found by a search; the file leaves the inbox; a repeat makes no second one', async () => {
    const f = take();
    const key = 'send-test-1';
    const r = await send('user', f.file_name, A.incoming, [{ ID: F.title, VAL: 'Sent from the inbox' }, { ID: F.documentDate, VAL: '2026-03-04' }], key);
    expect(r.statusCode, r.body).toBe(200);
    const sent = InboxSent.parse(r.json());
    expect(sent.ArchiveID).toBe(A.incoming);
    const d = await s.store.query<{ fields: Record<string, string>; page_count: number; file_type: string }>('SELECT fields, page_count, file_type FROM documents WHERE id = $1', [sent.DocID]);
    const doc = d.rows[0]!;
    expect(doc.fields[String(F.title)]).toBe('Sent from the inbox');
    expect(doc.fields[String(F.documentDate)]).toBe('2026-03-04');
    expect(doc.fields[String(F.pageCount)]).toBe(String(f.page_count));
    expect(doc.fields[String(F.dateEntered)]).toBe('2026-01-05');
    const files = await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1', [sent.DocID]);
    expect(files.rows.map((x) => x.sha256)).toEqual([f.sha256]);
    const pages = await s.store.query('SELECT 1 FROM document_pages WHERE document_id = $1', [sent.DocID]);
    expect(pages.rows).toHaveLength(f.page_count);
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).not.toContain(f.file_name);
    const again = await send('user', f.file_name, A.incoming, [{ ID: F.title, VAL: 'Sent from the inbox' }, { ID: F.documentDate, VAL: '2026-03-04' }], key);
    expect(InboxSent.parse(again.json()).DocID).toBe(sent.DocID);
    const n = await s.store.query('SELECT 1 FROM documents WHERE archive_id = $1 AND fields->>$2 = $3', [A.incoming, String(F.title), 'Sent from the inbox']);
    expect(n.rows).toHaveLength(1);
    // Found by the thumbnail route as any document: its file's first page renders.
    const thumb = await s.app.inject({ method: 'GET', url: `/api/dbs/${DB}/archives/${A.incoming}/documents/${sent.DocID}/thumb`, query: { SecureId: sent.Hash }, headers: h('user') });
    expect(thumb.statusCode).toBe(200);
  });

  it('checks the values by the field rules: a required field left empty (-5) and a bad date (-2), and nothing is made', async () => {
    const f = take();
    spare.push(f);
    const r = await send('user', f.file_name, A.incoming, [{ ID: F.documentDate, VAL: '2026-13-45' }]);
    expect(r.statusCode).toBe(400);
    const body = r.json() as { Key: string; Fields: { ID: number; Code: number }[] };
    expect(body.Key).toBe('ERROR_INCORRECT_PARAMETERS');
    expect(body.Fields.map((x) => [x.ID, x.Code]).sort()).toEqual([[F.title, -5], [F.documentDate, -2]].sort());
    const unknown = await send('user', f.file_name, A.incoming, [{ ID: F.title, VAL: 'x' }, { ID: F.invoiceNumber, VAL: '1' }]);
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { Fields: { Code: number }[] }).Fields[0]!.Code).toBe(-4);
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).toContain(f.file_name);
  });

  it('a dynamic list value must be one its parent fields allow (City of Country and Region)', async () => {
    const f = take();
    spare.push(f);
    const wrong = await send('user', f.file_name, A.incoming, [{ ID: F.title, VAL: 'x' }, { ID: F.country, VAL: 'France' }, { ID: F.region, VAL: 'North' }, { ID: F.city, VAL: 'Boston' }]);
    expect(wrong.statusCode).toBe(400);
    expect((wrong.json() as { Fields: { ID: number; MessageKey?: string }[] }).Fields).toEqual([expect.objectContaining({ ID: F.city, MessageKey: 'FIELD_NOT_IN_LIST' })]);
    expect((await rowsOf(I.scans)).map((x) => x.file_name)).toContain(f.file_name);
  });

  it('needs add (2) on the destination archive and refuses the read-only licence', async () => {
    const f = take();
    spare.push(f);
    const hr = await send('user', f.file_name, A.hrFiles, [{ ID: F.title, VAL: 'x' }]);
    expect(hr.statusCode).toBe(403);
    const viewer = await send('viewer', f.file_name, A.incoming, [{ ID: F.title, VAL: 'x' }]);
    expect(viewer.statusCode).toBe(403);
  });
});

describe('an archive document into an inbox', () => {
  it('moves it (the document is deleted, its one file becomes the inbox file) or copies it with DeleteOriginal false', async () => {
    const pool = await documentPool(s, A.correspondence);
    const [a, b] = pool.take(2);
    const put = (doc: { id: number; secure_hash: string }, deleteOriginal?: boolean, user = 'user') =>
      s.app.inject({
        method: 'PUT',
        url: inboxPaths.one(I.mailroom),
        payload: { DatabaseId: DB, ArchiveId: A.correspondence, DocId: doc.id, SecureId: doc.secure_hash, ...(deleteOriginal === undefined ? {} : { DeleteOriginal: deleteOriginal }) },
        headers: h(user),
      });
    const r = await put(a!);
    expect(r.statusCode, r.body).toBe(200);
    const moved = InboxFileMoved.parse(r.json());
    const file = await s.store.query<{ sha256: string }>('SELECT sha256 FROM document_files WHERE document_id = $1', [a!.id]);
    expect((await rowsOf(I.mailroom)).find((x) => x.file_name === moved.FileName)?.sha256).toBe(file.rows[0]!.sha256);
    const gone = await s.store.query<{ deleted: boolean }>('SELECT deleted FROM documents WHERE id = $1', [a!.id]);
    expect(gone.rows[0]!.deleted).toBe(true);

    const kept = await put(b!, false);
    expect(kept.statusCode).toBe(200);
    expect((await s.store.query<{ deleted: boolean }>('SELECT deleted FROM documents WHERE id = $1', [b!.id])).rows[0]!.deleted).toBe(false);
    expect((await put(b!, false, 'viewer')).statusCode).toBe(403);
    const wrongHash = await put({ id: b!.id, secure_hash: 'nope' }, false);
    expect(wrongHash.statusCode).toBe(403);
  });
});

describe('reading an inbox file', () => {
  it('answers the bytes with the name, a PNG thumbnail, and a zip of several files; view is enough', async () => {
    const files = InboxFiles.parse((await s.app.inject({ method: 'GET', url: inboxPaths.list, query: q({ Id: I.scans }), headers: h('viewer') })).json()).Files;
    const [f, g] = files;
    const bytes = await s.app.inject({ method: 'GET', url: inboxPaths.file(I.scans), query: q({ FilePath: f!.FileName }), headers: h('viewer') });
    expect(bytes.statusCode).toBe(200);
    const row = (await rowsOf(I.scans)).find((x) => x.file_name === f!.FileName)!;
    expect(bytes.rawPayload.byteLength).toBe(row.size);
    expect(bytes.headers['content-disposition']).toContain(encodeURIComponent(f!.FileName));
    const thumb = await s.app.inject({ method: 'GET', url: inboxPaths.thumb(I.scans), query: q({ FileName: f!.FileName, Height: 120 }), headers: h('viewer') });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    expect(thumb.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const missingPage = await s.app.inject({ method: 'GET', url: inboxPaths.thumb(I.scans), query: q({ FileName: f!.FileName, Page: 999 }), headers: h('viewer') });
    expect(missingPage.json()).toMatchObject({ Key: 'FILE_DOES_NOT_EXIST' });
    const zip = await s.app.inject({ method: 'POST', url: inboxPaths.one(I.scans), query: q({ export: true }), payload: { FilePaths: [f!.FileName, g!.FileName] }, headers: h('viewer') });
    expect(zip.statusCode, zip.body).toBe(200);
    const entries = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(entries).sort()).toEqual([f!.FileName, g!.FileName].sort());
    expect(entries[f!.FileName]!.byteLength).toBe(row.size);
    // Mailroom is not the viewer's.
    const other = await s.app.inject({ method: 'GET', url: inboxPaths.file(I.mailroom), query: q({ FilePath: 'scan-003.pdf' }), headers: h('viewer') });
    expect([403, 404]).toContain(other.statusCode);
  });
});
