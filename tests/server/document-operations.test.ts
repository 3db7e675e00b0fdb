/**
 * Copy, move and delete through GET .../documents/{id}/{Copy|Move|delete} and the job that does them
 * (server/routes/document-operations.ts, server/services/documents.ts, server/jobs/runner.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentHistory } from '../../src/api/audit';
import { DocumentOperationAccepted, documentPaths, type DocumentOperation } from '../../src/api/documents';
import { JOB_REASON_KEYS, Job, JobList, jobPaths } from '../../src/api/jobs';
import { SEED_IDS } from '../../server/seed/catalog';
import { documentPool, signIn, startServer, type PoolDoc, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
const tokens: Record<string, string> = {};
type Doc = PoolDoc;
/** Fresh invoices per test, so the tests do not see each other's changes. */
let take: (n: number) => Doc[];

beforeAll(async () => {
  s = await startServer({ seed: { docs: 160 } });
  for (const u of ['user', 'viewer', 'clerk', 'kiosk']) tokens[u] = await signIn(s, u);
  const pool = await documentPool(s, A.invoices);
  take = pool.take;
  expect(pool.size).toBeGreaterThan(30);
});
afterAll(async () => {
  await s?.close();
});

interface OpQuery {
  Job?: string;
  Count?: number;
  DestinationArchive?: number;
  SecureId?: string;
}
const call = (d: Doc, op: DocumentOperation, q: OpQuery = {}, user = 'user', headers: Record<string, string> = {}) => {
  const p = new URLSearchParams({ token: tokens[user]!, SecureId: q.SecureId ?? d.secure_hash });
  if (q.Job) p.set('Job', q.Job);
  if (q.Count !== undefined) p.set('Count', String(q.Count));
  if (q.DestinationArchive !== undefined) p.set('DestinationArchive', String(q.DestinationArchive));
  return s.app.inject({ method: 'GET', url: `${documentPaths.operation(1, d.archive_id, d.id, op)}?${p.toString()}`, headers });
};
const getJob = async (id: number, user = 'user') => {
  const r = await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens[user]}&Results=true` });
  expect(r.statusCode).toBe(200);
  return Job.parse(r.json());
};
/** The job once the runner has nothing left to do. */
const settled = async (id: number) => {
  await s.jobs.whenIdle();
  return getJob(id);
};
const history = async (archiveId: number, d: { id: number; secure_hash: string }) => {
  const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${archiveId}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` });
  expect(r.statusCode).toBe(200);
  return DocumentHistory.parse(r.json());
};
const rowsOf = async (id: number) => {
  const doc = (await s.store.query('SELECT fields, mvals, file_name, file_type, page_count, content_text, version FROM documents WHERE id = $1', [id])).rows[0];
  const files = (await s.store.query('SELECT position, sha256, file_name, file_type, page_count FROM document_files WHERE document_id = $1 ORDER BY position, id', [id])).rows;
  const pages = (
    await s.store.query(
      `SELECT p.page_no, p.page_in_file, p.rotation, p.text, f.sha256 FROM document_pages p LEFT JOIN document_files f ON f.id = p.file_id WHERE p.document_id = $1 ORDER BY p.page_no`,
      [id],
    )
  ).rows;
  return { doc, files, pages };
};

describe('copy', () => {
  it('makes a new document in the destination with the same fields, files (same blobs) and pages, and a copied entry on both', async () => {
    const [d] = take(1) as [Doc];
    const r = await call(d, 'Copy', { DestinationArchive: A.paidInvoices });
    expect(r.statusCode).toBe(200);
    const accepted = DocumentOperationAccepted.parse(r.json());
    expect(accepted.Count).toBe(1);
    const job = await settled(accepted.JobId);
    expect(job).toMatchObject({ State: 'done', Kind: 'copy', Count: 1, Succeeded: 1, Failed: 0, Processed: 1 });
    expect(job.Notes).toEqual([[5, { Action: 'copy', Count: 1, Succeeded: 1, Failed: 0 }]]);
    const newId = job.Results?.[0]?.NewDocID as number;
    expect(newId).toBeGreaterThan(d.id);
    const copy = (await s.store.query<{ archive_id: number; secure_hash: string; version: number }>('SELECT archive_id, secure_hash, version FROM documents WHERE id = $1', [newId])).rows[0]!;
    expect(copy.archive_id).toBe(A.paidInvoices);
    expect(copy.secure_hash).not.toBe(d.secure_hash);
    const before = await rowsOf(d.id);
    const after = await rowsOf(newId);
    expect(before.files.length).toBeGreaterThan(0);
    expect(before.pages.length).toBeGreaterThan(0);
    expect(after.doc).toEqual({ ...before.doc, version: 1 });
    expect(after.files).toEqual(before.files);
    expect(after.pages).toEqual(before.pages);
    // The source is untouched.
    expect((await s.store.query('SELECT archive_id, deleted FROM documents WHERE id = $1', [d.id])).rows[0]).toEqual({ archive_id: A.invoices, deleted: false });

    const h = await history(A.paidInvoices, { id: newId, secure_hash: copy.secure_hash });
    expect(h[0]).toMatchObject({ Category: 'copied', OldArchiveID: A.invoices, OldDocID: d.id, ArchiveID: A.paidInvoices, DocumentID: newId, Event: { Kind: 'copied-from', Archive: 'Invoices' } });
    const src = await history(A.invoices, d);
    expect(src[0]).toMatchObject({ Category: 'copied', Event: { Kind: 'copied-to', Archive: 'Paid Invoices' } });
  });
});

describe('move', () => {
  it('keeps the document (id, files, earlier history) and writes one moved entry with the old archive and id', async () => {
    const [d] = take(1) as [Doc];
    const earlier = await history(A.invoices, d);
    expect(earlier.length).toBeGreaterThan(0);
    const files = await rowsOf(d.id);
    const count = async (archiveId: number) => (await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${archiveId}?token=${tokens.user}` })).json<{ Count: number }>().Count;
    const counts = [await count(A.invoices), await count(A.correspondence)];
    const r = await call(d, 'Move', { DestinationArchive: A.correspondence, Job: randomUUID(), Count: 1 });
    expect(r.statusCode).toBe(200);
    const job = await settled(DocumentOperationAccepted.parse(r.json()).JobId);
    expect(job).toMatchObject({ State: 'done', Kind: 'move', Succeeded: 1, Results: [{ DocID: d.id, ArchiveID: A.invoices, NewDocID: d.id, NewArchiveID: A.correspondence }] });
    expect((await s.store.query('SELECT archive_id FROM documents WHERE id = $1', [d.id])).rows[0]).toEqual({ archive_id: A.correspondence });
    expect(await rowsOf(d.id)).toEqual(files);
    expect([await count(A.invoices), await count(A.correspondence)]).toEqual([counts[0]! - 1, counts[1]! + 1]);

    const h = await history(A.correspondence, d);
    const moved = h.filter((e) => e.Category === 'moved');
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ ArchiveID: A.correspondence, OldArchiveID: A.invoices, OldDocID: d.id, Event: { Kind: 'moved-from', Archive: 'Invoices' } });
    expect(h).toHaveLength(earlier.length + 1);
    expect(h.slice(1).map((e) => e.Message)).toEqual(earlier.map((e) => e.Message));
    // It is no longer found in its old archive.
    const old = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${A.invoices}/documents/${d.id}/audit?SecureId=${d.secure_hash}&token=${tokens.user}` });
    expect(old.statusCode).toBe(404);
  });
});

describe('revision-controlled archives', () => {
  it('a copy takes the current version only; a move keeps the versions', async () => {
    const revised = await s.store.query<Doc>(
      `SELECT d.id, d.archive_id, d.secure_hash FROM documents d WHERE d.archive_id = $1 AND NOT d.deleted AND d.checked_out_by IS NULL
          AND (SELECT count(*) FROM document_versions v WHERE v.document_id = d.id) = 2 ORDER BY d.id LIMIT 2`,
      [A.contracts],
    );
    expect(revised.rows).toHaveLength(2);
    const [a, b] = revised.rows.map((d) => ({ ...d, id: Number(d.id) })) as [Doc, Doc];
    const versions = async (id: number) => (await s.store.query<{ version: number }>('SELECT version FROM document_versions WHERE document_id = $1 ORDER BY version', [id])).rows.map((v) => v.version);

    const copy = await settled(DocumentOperationAccepted.parse((await call(a, 'Copy', { DestinationArchive: A.invoices })).json()).JobId);
    expect(copy.State).toBe('done');
    const newId = copy.Results?.[0]?.NewDocID as number;
    expect(await versions(newId)).toEqual([1]);
    expect((await s.store.query('SELECT version FROM documents WHERE id = $1', [newId])).rows[0]).toEqual({ version: 1 });

    const move = await settled(DocumentOperationAccepted.parse((await call(b, 'Move', { DestinationArchive: A.invoices })).json()).JobId);
    expect(move.State).toBe('done');
    expect(await versions(b.id)).toEqual([1, 2]);
  });
});

describe('delete', () => {
  it('hides the document from searches and archive counts and records deleted', async () => {
    const [d] = take(1) as [Doc];
    const search = async () => {
      const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/searches/${SEED_IDS.search.allInvoices}/archive/${A.invoices}/documents?RecordsPerPage=1000&Count=true&token=${tokens.user}` });
      expect(r.statusCode).toBe(200);
      const page = r.json() as { Count: number; Docs: { ID?: number; Id?: number }[] };
      return { count: page.Count, ids: page.Docs.map((x) => Number(x.ID ?? x.Id)) };
    };
    const archiveCount = async () => {
      const r = await s.app.inject({ method: 'GET', url: `/api/dbs/1/archives/${A.invoices}?token=${tokens.user}` });
      return (r.json() as { Count: number }).Count;
    };
    const before = await search();
    const countBefore = await archiveCount();
    expect(before.ids).toContain(d.id);
    const r = await call(d, 'delete', { Job: randomUUID(), Count: 1 });
    expect(r.statusCode).toBe(200);
    const job = await settled(DocumentOperationAccepted.parse(r.json()).JobId);
    expect(job).toMatchObject({ State: 'done', Kind: 'delete', Succeeded: 1 });
    const after = await search();
    expect(after.ids).not.toContain(d.id);
    expect(after.count).toBe(before.count - 1);
    expect(await archiveCount()).toBe(countBefore - 1);
    const entry = (await s.store.query<{ category: string; details: { Event?: { Kind: string } } }>("SELECT category, details FROM audit_entries WHERE document_id = $1 AND category = 'deleted' AND user_id IS NOT NULL", [d.id])).rows;
    expect(entry).toHaveLength(1);
    expect(entry[0]?.details.Event?.Kind).toBe('document-deleted');
    // Deleting it again: no such document (any more).
    expect((await call(d, 'delete')).statusCode).toBe(404);
  });
});

describe('groups', () => {
  it('makes one job of N calls with one Job key; a repeated call changes nothing', async () => {
    const docs = take(5);
    const key = randomUUID();
    const ids = new Set<number>();
    for (const d of docs) {
      const r = await call(d, 'Copy', { Job: key, Count: docs.length, DestinationArchive: A.paidInvoices });
      expect(r.statusCode).toBe(200);
      ids.add(DocumentOperationAccepted.parse(r.json()).JobId);
    }
    expect(ids.size).toBe(1);
    const jobId = [...ids][0]!;
    const job = await settled(jobId);
    expect(job).toMatchObject({ State: 'done', Count: 5, Received: 5, Succeeded: 5, Failed: 0, Processed: 5, Key: key });
    // Resent calls (an outbox replay): nothing is copied again.
    for (const d of docs.slice(0, 2)) {
      const r = await call(d, 'Copy', { Job: key, Count: docs.length, DestinationArchive: A.paidInvoices });
      expect(r.statusCode).toBe(200);
      expect(DocumentOperationAccepted.parse(r.json())).toMatchObject({ JobId: jobId, State: 'done', Received: 5 });
    }
    expect(await settled(jobId)).toMatchObject({ Count: 5, Received: 5, Succeeded: 5 });
    for (const d of docs) {
      const copies = await s.store.query("SELECT 1 FROM audit_entries WHERE old_doc_id = $1 AND category = 'copied'", [d.id]);
      expect(copies.rowCount).toBe(1);
    }
    // A sixth document does not fit a group of five; another operation may not reuse the key.
    const [extra] = take(1) as [Doc];
    expect((await call(extra, 'Copy', { Job: key, Count: 5, DestinationArchive: A.paidInvoices })).statusCode).toBe(400);
    expect((await call(extra, 'delete', { Job: key })).statusCode).toBe(400);
    expect((await call(extra, 'Copy', { Job: key, Count: 6, DestinationArchive: A.paidInvoices })).statusCode).toBe(400);
  });

  it('calls of one group sent at once (and each twice) make one job with every document once', async () => {
    const docs = take(8);
    const key = randomUUID();
    const answers = await Promise.all([...docs, ...docs].map((d) => call(d, 'Copy', { Job: key, Count: docs.length, DestinationArchive: A.paidInvoices })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(16).fill(200));
    const ids = new Set(answers.map((a) => DocumentOperationAccepted.parse(a.json()).JobId));
    expect(ids.size).toBe(1);
    const job = await settled([...ids][0]!);
    expect(job).toMatchObject({ State: 'done', Count: 8, Received: 8, Succeeded: 8 });
    for (const d of docs) expect((await s.store.query("SELECT 1 FROM audit_entries WHERE old_doc_id = $1 AND category = 'copied'", [d.id])).rowCount).toBe(1);
  });

  it('a group listed from several archives: a document already in the destination is refused as a document (recorded), so the counts add up', async () => {
    const [d] = take(1) as [Doc];
    const there = (await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id LIMIT 1', [A.paidInvoices])).rows[0]!;
    const inDestination = { ...there, id: Number(there.id) };
    const key = randomUUID();
    expect((await call(d, 'Copy', { Job: key, Count: 2, DestinationArchive: A.paidInvoices })).statusCode).toBe(200);
    const refused = await call(inDestination, 'Copy', { Job: key, Count: 2, DestinationArchive: A.paidInvoices });
    expect(refused.statusCode).toBe(400);
    const jobId = (refused.json() as { JobId: number }).JobId;
    const job = await settled(jobId);
    expect(job).toMatchObject({ State: 'done', Count: 2, Received: 2, Succeeded: 1, Failed: 1 });
    expect(job.Failures?.map((f) => f.Message)).toEqual([`DocID ${inDestination.id}: The document is in the destination archive already`]);
    // The call itself still says what is wrong when the archive it names is the destination of a single call.
    expect((await call(inDestination, 'Copy', { DestinationArchive: A.paidInvoices })).statusCode).toBe(400);
  });

  it('a single call resent with the same Idempotency-Key is done once', async () => {
    const [d] = take(1) as [Doc];
    const headers = { 'idempotency-key': randomUUID() };
    const first = await call(d, 'Copy', { DestinationArchive: A.paidInvoices }, 'user', headers);
    const again = await call(d, 'Copy', { DestinationArchive: A.paidInvoices }, 'user', headers);
    expect(DocumentOperationAccepted.parse(again.json()).JobId).toBe(DocumentOperationAccepted.parse(first.json()).JobId);
    await settled(DocumentOperationAccepted.parse(first.json()).JobId);
    expect((await s.store.query("SELECT 1 FROM audit_entries WHERE old_doc_id = $1 AND category = 'copied'", [d.id])).rowCount).toBe(1);
  });
});

describe('refusals', () => {
  it('refuses the read-only licence and records the failure in the job', async () => {
    // The viewer may read Invoices but change nothing (licence type 4).
    const [d] = take(1) as [Doc];
    const key = randomUUID();
    const r = await call(d, 'Copy', { Job: key, Count: 1, DestinationArchive: A.paidInvoices }, 'viewer');
    expect(r.statusCode).toBe(403);
    const body = r.json() as { Key: string; JobId: number };
    expect(body.Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    const job = await getJob(body.JobId, 'viewer');
    expect(job).toMatchObject({ State: 'failed', Count: 1, Succeeded: 0, Failed: 1 });
    expect(job.Failures?.[0]?.Message).toMatch(new RegExp(`^DocID ${d.id}: `));
    // Cancelling one's own job is allowed on the read-only licence (it changes no document).
    const cancel = await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(body.JobId)}?token=${tokens.viewer}` });
    expect(cancel.statusCode).toBe(200);
    expect(Job.parse(cancel.json()).State).toBe('failed');
    expect((await call(d, 'delete', {}, 'viewer')).statusCode).toBe(403);
    expect((await call(d, 'Move', { DestinationArchive: A.correspondence }, 'viewer')).statusCode).toBe(403);
  });

  it('refuses delete without bit 8 and move without bit 131072, counting them in the group; the rest of the group is done', async () => {
    const docs = take(3);
    const key = randomUUID();
    const bad = await call(docs[0]!, 'delete', { Job: key, Count: 1 }, 'clerk');
    expect(bad.statusCode).toBe(403);
    expect(await getJob((bad.json() as { JobId: number }).JobId, 'clerk')).toMatchObject({ State: 'failed', Failed: 1, Failures: [{ DocID: docs[0]!.id, Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }] });

    const moveKey = randomUUID();
    const refused = await call(docs[1]!, 'Move', { Job: moveKey, Count: 2, DestinationArchive: A.correspondence }, 'clerk');
    expect(refused.statusCode).toBe(403);
    const job = await getJob((refused.json() as { JobId: number }).JobId, 'clerk');
    expect(job.Failures?.[0]?.Message).toBe(`DocID ${docs[1]!.id}: You do not have permission to move documents of this archive`);
    // The reason also as a key and its parts, for the tray to say in the user's language.
    expect(job.Failures?.[0]?.ReasonWords).toEqual({ Key: JOB_REASON_KEYS.noMoveRight, Params: { archive: 'Invoices' } });
    // Copy is allowed for clerk.
    const copy = await call(docs[2]!, 'Copy', { Job: randomUUID(), Count: 1, DestinationArchive: A.paidInvoices }, 'clerk');
    expect(copy.statusCode).toBe(200);
    // Nothing of the refused ones changed.
    expect((await s.store.query('SELECT count(*)::int AS n FROM documents WHERE id IN ($1, $2) AND archive_id = $3 AND NOT deleted', [docs[0]!.id, docs[1]!.id, A.invoices])).rows[0]).toEqual({ n: 2 });
  });

  it('counts a refused document of a group as a failure and ends the job done when the rest succeeded', async () => {
    const docs = take(3);
    const key = randomUUID();
    const answers = [];
    for (const [i, d] of docs.entries()) answers.push(await call(d, 'Copy', { Job: key, Count: 3, DestinationArchive: A.paidInvoices, ...(i === 1 ? { SecureId: 'wrong' } : {}) }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 403, 200]);
    const job = await settled(DocumentOperationAccepted.parse(answers[0]!.json()).JobId);
    expect(job).toMatchObject({ State: 'done', Count: 3, Succeeded: 2, Failed: 1 });
    expect(job.Failures?.map((f) => f.Message)).toEqual([`DocID ${docs[1]!.id}: The secure id does not match this document`]);
    expect(job.Failures?.map((f) => f.ReasonWords)).toEqual([{ Key: JOB_REASON_KEYS.secureId }]);
    expect(job.Notes).toEqual([[5, { Action: 'copy', Count: 3, Succeeded: 2, Failed: 1 }]]);
  });

  it('answers 400 for a bad destination and 404 for an unknown document', async () => {
    const [d] = take(1) as [Doc];
    expect((await call(d, 'Copy')).statusCode).toBe(400);
    expect((await call(d, 'Move', { DestinationArchive: A.invoices })).statusCode).toBe(400);
    expect((await call(d, 'Copy', { DestinationArchive: A.contractVersions })).statusCode).toBe(400);
    expect((await call(d, 'Copy', { DestinationArchive: 999 })).statusCode).toBe(404);
    expect((await call({ ...d, id: 99_999 }, 'delete')).statusCode).toBe(404);
  });

  it('refuses a document checked out by another user in a revision-controlled archive', async () => {
    const r = await s.store.query<Doc>('SELECT id, archive_id, secure_hash FROM documents WHERE archive_id = $1 AND NOT deleted ORDER BY id LIMIT 1', [A.contracts]);
    const d = { ...r.rows[0]!, id: Number(r.rows[0]!.id) };
    await s.store.query('UPDATE documents SET checked_out_by = $2 WHERE id = $1', [d.id, SEED_IDS.user.admin]);
    const a = await call(d, 'delete', { Job: randomUUID(), Count: 1 });
    expect(a.statusCode).toBe(409);
    expect((a.json() as { Key: string }).Key).toBe('ERROR_DOCUMENT_CHECKED_OUT');
  });
});

describe('jobs', () => {
  it('are seen and cancelled by their owner only', async () => {
    const [d] = take(1) as [Doc];
    const r = await call(d, 'Copy', { Job: randomUUID(), Count: 2, DestinationArchive: A.paidInvoices });
    const id = DocumentOperationAccepted.parse(r.json()).JobId;
    const list = JobList.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.list}?token=${tokens.user}` })).json());
    expect(list.map((j) => j.Id)).toContain(id);
    const others = JobList.parse((await s.app.inject({ method: 'GET', url: `${jobPaths.list}?token=${tokens.kiosk}` })).json());
    expect(others.map((j) => j.Id)).not.toContain(id);
    expect((await s.app.inject({ method: 'GET', url: `${jobPaths.job(id)}?token=${tokens.kiosk}` })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(id)}?token=${tokens.kiosk}` })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'GET', url: `${jobPaths.job(999_999)}?token=${tokens.user}` })).statusCode).toBe(404);
    // The owner cancels it while it waits for its second document.
    await s.jobs.whenIdle();
    const cancelled = await s.app.inject({ method: 'DELETE', url: `${jobPaths.job(id)}?token=${tokens.user}` });
    expect(cancelled.statusCode).toBe(200);
    expect(Job.parse(cancelled.json())).toMatchObject({ State: 'cancelled', Succeeded: 1, Received: 1, Count: 2 });
  });
});
