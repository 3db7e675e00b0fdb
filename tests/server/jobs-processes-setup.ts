// Needs PostgreSQL's server binaries (initdb, pg_ctl; Debian: apt-get install -y postgresql, which .ci/run does): without them these tests FAIL, by design.
/**
 * What the job tests on real processes share (jobs-kill.test.ts, jobs-two-processes.test.ts; one
 * file each, so that each runs on its own cluster beside the other). Issue 9 item 3, proven on real processes: the server runs as child processes (node server/main.ts)
 * on a throwaway PostgreSQL cluster, driven over HTTP only (the Copy call and GET api/jobs/{id}), and
 * checked with SQL on the database. Nothing of the job runner is imported, so these tests hold
 * whatever its internals are.
 *
 * - A copy of 2,000 documents as one job; the server is killed with SIGKILL while the job runs and
 *   started again on the same database: the job ends, Succeeded + Failed = 2,000, each source
 *   document has exactly one copy per success (none per failure), and every copy has its fields,
 *   files and pages.
 * - Two server processes on one database: exactly one works the job; killing that one hands it to
 *   the other once its lease lapses, and the other finishes it.
 *
 * The 2,000 source documents are made in SQL (tests/server/clone-documents.ts: clones of the demo's
 * Paid Invoices with files and pages, each titled `<test>-src-<n>`), since the small demo seed has
 * far fewer; they are copied to Invoices, whose fields include every field of Paid Invoices. A copy
 * is found by its title (a copy keeps its source's fields).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { cloneDocuments, TITLE_FIELD } from './clone-documents';
import { startPgCluster, type PgCluster } from './pg-cluster';
import { mapBounded, startServerProcess, type ServerProcess } from './processes';

const DB = 1;
const SOURCE_ARCHIVE = 2; // Paid Invoices
const DESTINATION_ARCHIVE = 1; // Invoices
export const DOCS = 2000;
const CONCURRENCY = 8;
// A short job lease (JOB_LEASE_SECONDS), so a job of a killed process is taken up again within
// seconds (the runner's default suits production, where a lapse must not happen on a slow moment).
export const LEASE_SECONDS = 3;
const SERVER_ENV = { JOB_LEASE_SECONDS: String(LEASE_SECONDS) };

export interface JobAnswer {
  Id: number;
  State: string;
  Key?: string | null;
  Count: number;
  Received: number;
  Processed: number;
  Succeeded: number;
  Failed: number;
  Failures?: { DocID: number; ArchiveID: number; Reason: string; Message: string }[];
  Results?: { DocID: number; NewDocID?: number }[];
}
export type Doc = { id: number; hash: string; title: string };

let cluster: PgCluster;
let url: string;
let dataDir: string;
let sql: pg.Client;
let sources: Doc[] = [];
const processes: ServerProcess[] = [];

/**
 * A throwaway PostgreSQL cluster with the demo seeded and DOCS clones of Paid Invoices' documents
 * titled `<prefix><n>` (made in beforeAll, all stopped and removed in afterAll). Answers the
 * documents to copy (read once beforeAll has run).
 */
export function setUpJobsDatabase(prefix: string): () => readonly Doc[] {
  beforeAll(async () => {
    // fsync off: SIGKILL of our server never touches PostgreSQL; these tests prove the server's steps.
    cluster = await startPgCluster({ settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
    url = await cluster.createDatabase('jobs_processes');
    dataDir = mkdtempSync(join(tmpdir(), 'archive-jobs-processes-'));
    // The first start seeds the demo (documents in Paid Invoices to clone), then stops.
    const seeder = await startServerProcess({ databaseUrl: url, dataDir, seedDocs: 100, env: SERVER_ENV });
    await seeder.kill('SIGTERM');
    sql = new pg.Client({ connectionString: url });
    await sql.connect();
    sources = await cloneDocuments(sql, { archiveId: SOURCE_ARCHIVE, count: DOCS, prefix });
  }, 300_000);

  afterAll(async () => {
    for (const p of processes) await p.kill();
    await sql?.end().catch(() => undefined);
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);

  return () => sources;
}

export async function start(): Promise<ServerProcess> {
  const p = await startServerProcess({ databaseUrl: url, dataDir, seedDocs: 0, env: SERVER_ENV });
  processes.push(p);
  return p;
}

/** The boot ids in server_processes (each process beats there under the id it marks its jobs with). */
const bootIds = async () => new Set((await sql.query<{ boot_id: string }>('SELECT boot_id FROM server_processes')).rows.map((r) => r.boot_id));

/** Starts a server and answers it with its boot id (the one that was not there before). */
export async function startWithBootId(): Promise<[ServerProcess, string]> {
  const before = await bootIds();
  const p = await start();
  const added = [...(await bootIds())].filter((b) => !before.has(b));
  expect(added, 'one new process in server_processes').toHaveLength(1);
  return [p, added[0] as string];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * When the tests kill a process: once its job has handled this many documents (and not all). The
 * first test kills early, while the calls are still arriving (some in flight: sent again after the
 * restart, and each still done once); the second once a quarter is done.
 */
export const KILL_EARLY = 50;
export const KILL_AFTER = DOCS / 4;

const authed = (token: string) => ({ headers: { 'auth-token': token } });

function copyUrl(base: string, doc: Doc, key: string, count: number): string {
  const q = new URLSearchParams({ SecureId: doc.hash, Job: key, Count: String(count), DestinationArchive: String(DESTINATION_ARCHIVE) });
  return `${base}/api/dbs/${DB}/archives/${SOURCE_ARCHIVE}/documents/${doc.id}/Copy?${q.toString()}`;
}

/**
 * Sends the Copy call of each document (bounded concurrency) to the server of `bases[i % n]`. A call
 * the network refuses (its server was killed) is left unanswered, to be sent again later, as the
 * app's outbox would. Answers the job id and which documents were answered.
 */
export async function sendCopies(bases: string[], token: string, docs: readonly Doc[], key: string, count: number, onJob?: (id: number) => void) {
  const answered = new Set<number>();
  let jobId: number | undefined;
  await mapBounded(docs, CONCURRENCY, async (doc, i) => {
    let r: Response;
    try {
      r = await fetch(copyUrl(bases[i % bases.length] as string, doc, key, count), authed(token));
    } catch {
      return; // Connection refused or reset: the server is gone.
    }
    const body = await r.text();
    expect(r.status, `Copy of document ${doc.id}: ${body}`).toBeLessThan(300);
    const accepted = JSON.parse(body) as { JobId: number };
    if (jobId === undefined) {
      jobId = accepted.JobId;
      onJob?.(jobId);
    }
    expect(accepted.JobId).toBe(jobId);
    answered.add(doc.id);
  });
  return { jobId, answered };
}

/** The whole job: with each failure and each handled document (Failures, Results). */
async function getJob(base: string, token: string, id: number): Promise<JobAnswer> {
  const r = await fetch(`${base}/api/jobs/${id}?Results=true`, authed(token));
  const body = await r.text();
  if (r.status !== 200) throw new Error(`GET api/jobs/${id} answered ${r.status}: ${body}`);
  return JSON.parse(body) as JobAnswer;
}

/**
 * The job's progress from the user's job list (GET api/jobs: no Failures or Results, so polling it
 * often does not slow the job down the way asking for 2,000 results each time would).
 */
export async function jobProgress(base: string, token: string, id: number): Promise<JobAnswer> {
  const r = await fetch(`${base}/api/jobs`, authed(token));
  const body = await r.text();
  if (r.status !== 200) throw new Error(`GET api/jobs answered ${r.status}: ${body}`);
  const job = (JSON.parse(body) as JobAnswer[]).find((j) => j.Id === id);
  if (!job) throw new Error(`job ${id} is not in the user's job list`);
  return job;
}

export const isFinal = (state: string) => state === 'done' || state === 'failed' || state === 'cancelled';

export async function waitFinal(base: string, token: string, id: number, timeoutMs: number): Promise<JobAnswer> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobProgress(base, token, id);
    if (isFinal(job.State)) return getJob(base, token, id);
    if (Date.now() > until) throw new Error(`job ${id} not ended after ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await sleep(200);
  }
}

/**
 * What the database holds after the job: for each source document, its copies in the destination
 * archive (found by the source's unique title), and for each copy whether its fields, files and
 * pages are the source's.
 */
export async function checkCopies(docs: readonly Doc[], job: JobAnswer) {
  const failedIds = new Set((job.Failures ?? []).map((f) => f.DocID));
  const copies = await sql.query<{ title: string; n: string }>(
    `SELECT d.fields->>'${TITLE_FIELD}' AS title, count(*) AS n FROM documents d
      WHERE d.archive_id = $1 AND NOT d.deleted AND d.fields->>'${TITLE_FIELD}' = ANY($2::text[])
      GROUP BY 1`,
    [DESTINATION_ARCHIVE, docs.map((d) => d.title)],
  );
  const perTitle = new Map(copies.rows.map((r) => [r.title, Number(r.n)]));
  const wrongCounts = docs
    .map((d) => ({ id: d.id, copies: perTitle.get(d.title) ?? 0, expected: failedIds.has(d.id) ? 0 : 1 }))
    .filter((x) => x.copies !== x.expected);
  expect(wrongCounts.slice(0, 10), `${wrongCounts.length} source documents with a wrong number of copies`).toEqual([]);

  // Each copy against its source: the user's fields (not the system fields a copy sets anew: date
  // entered, indexed by, page count, last modified by, file type), multi-values, files (same
  // content, names and order) and pages (same numbers, each on the copy's own file).
  const mismatches = await sql.query<{ source_id: string; copy_id: string; what: string }>(
    `WITH pairs AS (
       SELECT s.id AS source_id, c.id AS copy_id FROM documents s
         JOIN documents c ON c.archive_id = $2 AND NOT c.deleted AND c.fields->>'${TITLE_FIELD}' = s.fields->>'${TITLE_FIELD}'
        WHERE s.id = ANY($1::bigint[])
     ),
     user_fields AS (
       SELECT af.field_id::text AS fid FROM archive_fields af JOIN fields f ON f.id = af.field_id
        WHERE af.archive_id = $3 AND f.prop & (4 | 8 | 16 | 256 | 1024) = 0
     )
     SELECT p.source_id, p.copy_id, 'fields' AS what FROM pairs p JOIN documents s ON s.id = p.source_id JOIN documents c ON c.id = p.copy_id
      WHERE EXISTS (SELECT 1 FROM user_fields u WHERE (s.fields->u.fid) IS DISTINCT FROM (c.fields->u.fid))
         OR s.mvals IS DISTINCT FROM c.mvals
     UNION ALL
     SELECT p.source_id, p.copy_id, 'files' FROM pairs p
      WHERE (SELECT coalesce(jsonb_agg(jsonb_build_array(f.sha256, f.file_name, f.file_type, f.page_count) ORDER BY f.position), '[]') FROM document_files f WHERE f.document_id = p.source_id)
         IS DISTINCT FROM
            (SELECT coalesce(jsonb_agg(jsonb_build_array(f.sha256, f.file_name, f.file_type, f.page_count) ORDER BY f.position), '[]') FROM document_files f WHERE f.document_id = p.copy_id)
     UNION ALL
     SELECT p.source_id, p.copy_id, 'pages' FROM pairs p
      WHERE (SELECT coalesce(jsonb_agg(jsonb_build_array(dp.page_no, dp.page_in_file, dp.text) ORDER BY dp.page_no), '[]') FROM document_pages dp WHERE dp.document_id = p.source_id)
         IS DISTINCT FROM
            (SELECT coalesce(jsonb_agg(jsonb_build_array(dp.page_no, dp.page_in_file, dp.text) ORDER BY dp.page_no), '[]') FROM document_pages dp WHERE dp.document_id = p.copy_id)
         OR EXISTS (SELECT 1 FROM document_pages dp LEFT JOIN document_files f ON f.id = dp.file_id
                     WHERE dp.document_id = p.copy_id AND f.document_id IS DISTINCT FROM p.copy_id)
     UNION ALL
     SELECT p.source_id, p.copy_id, 'page count' FROM pairs p JOIN documents s ON s.id = p.source_id JOIN documents c ON c.id = p.copy_id
      WHERE s.page_count <> c.page_count OR s.page_count = 0`,
    [docs.map((d) => d.id), DESTINATION_ARCHIVE, SOURCE_ARCHIVE],
  );
  expect(mismatches.rows.slice(0, 10), `${mismatches.rowCount} copies differ from their source`).toEqual([]);
  const total = [...perTitle.values()].reduce((a, b) => a + b, 0);
  expect(total).toBe(job.Succeeded);

  // One history entry 'copied' on each side of each copy (written in the copy's transaction: a
  // document done again after the kill would have two).
  const history = await sql.query<{ id: string; side: string; n: string }>(
    `SELECT d.id, CASE WHEN d.archive_id = $2 THEN 'copy' ELSE 'source' END AS side, count(a.id) AS n
       FROM documents d LEFT JOIN audit_entries a ON a.document_id = d.id AND a.category = 'copied'
      WHERE d.fields->>'${TITLE_FIELD}' = ANY($1::text[]) AND NOT d.deleted
      GROUP BY d.id, d.archive_id`,
    [docs.map((d) => d.title), DESTINATION_ARCHIVE],
  );
  const wrongHistory = history.rows.filter((r) => Number(r.n) !== (r.side === 'copy' ? 1 : failedIds.has(Number(r.id)) ? 0 : 1));
  expect(wrongHistory.slice(0, 10), `${wrongHistory.length} documents without exactly one 'copied' history entry`).toEqual([]);
  expect(history.rows.length).toBe(docs.length + job.Succeeded);

  // The job's own record agrees: each handled document names its copy, and that is the one above.
  const results = job.Results ?? [];
  expect(results).toHaveLength(job.Succeeded);
  const pairs = results.map((r) => [r.DocID, r.NewDocID ?? 0]);
  const named = await sql.query<{ n: string }>(
    `SELECT count(*) AS n FROM jsonb_array_elements($1::jsonb) AS r(pair)
       JOIN documents s ON s.id = (r.pair->>0)::bigint
       JOIN documents c ON c.id = (r.pair->>1)::bigint
      WHERE c.archive_id = $2 AND NOT c.deleted AND c.fields->>'${TITLE_FIELD}' = s.fields->>'${TITLE_FIELD}'`,
    [JSON.stringify(pairs), DESTINATION_ARCHIVE],
  );
  expect(Number(named.rows[0]?.n)).toBe(job.Succeeded);
}

export function expectEnded(job: JobAnswer, key: string) {
  expect(['done', 'failed']).toContain(job.State);
  expect(job.Key).toBe(key);
  expect(job.Count).toBe(DOCS);
  expect(job.Succeeded + job.Failed).toBe(DOCS);
  expect(job.Processed).toBe(DOCS);
  // A failure says which document and why ('DocID {id}: reason').
  for (const f of job.Failures ?? []) expect(f.Message).toMatch(new RegExp(`^DocID ${f.DocID}: .+`));
  expect((job.Failures ?? []).length).toBe(job.Failed);
}

/** The job's row as the runner leaves it: who holds it (a boot id) and how far it is. */
export async function jobRow(id: number) {
  const row = (
    await sql.query<{ locked_by: string | null; lease_until: Date | null; progress: number; total: number; state: string }>(
      'SELECT locked_by, lease_until, progress, total, state FROM jobs WHERE id = $1',
      [id],
    )
  ).rows[0];
  if (!row) throw new Error(`job ${id} is not in the jobs table`);
  return row;
}

/** Runs fn in the background; answers a promise of its error (or undefined), never rejected. */
export const background = (fn: () => Promise<void>): Promise<unknown> =>
  fn().then(
    () => undefined,
    (e: unknown) => e,
  );
