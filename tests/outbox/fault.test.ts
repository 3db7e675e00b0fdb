/**
 * The outbox fault test (issue 4 item 6): at least 1,000 field edits go through the real client
 * outbox (enqueueFieldEdit, runDrain, src/api/http.ts) over real HTTP to the real server (in-memory
 * PGlite), while a seeded fault injector (fault-support.ts) cuts connections before the request,
 * after the commit and in flight, answers 503 without sending and 500 after the commit, sends
 * requests twice as Chromium does, and reloads the page mid-drain; between rounds the licence is
 * released on the server (the token expires while edits are queued) and the user signs in again.
 * Then the server's values and audit trail are compared with what was enqueued: every edit applied
 * exactly once (one 'updated' audit entry carrying its Idempotency-Key), in order, and the last
 * value of each field is the one on the server.
 *
 * Only this client edits, so no conflict is legitimate: the test asserts 0 conflict and 0 failed.
 * FAULT_SEED=<n> runs another fault sequence (the seed fixes the choices; the exact interleaving of
 * in-flight requests with the server still depends on timing, so request counts vary a little).
 */
import 'fake-indexeddb/auto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { clearSession, getToken, setSession } from '../../src/session/session';
import { ArchiveDb, type OutboxEntry } from '../../src/db/db';
import { runDrain, type DrainResult } from '../../src/sync/drain';
import { enqueueFieldEdit } from '../../src/sync/kinds/field-data';
import { outboxTarget } from '../../src/sync/outbox';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { basic, startServer, type TestServer } from '../server/helpers';
import { faultInjector, prng, type FaultRates } from './fault-support';

const EDITS = 1000;
const DOCS = 50;
const MAX_ROUNDS = 600;
const SEED = Number(process.env.FAULT_SEED ?? 20260105);
const RATES: FaultRates = {
  cutBefore: 0.06,
  cutAfterCommit: 0.06,
  cutInFlight: 0.04,
  unavailable503: 0.05,
  error500AfterCommit: 0.05,
  duplicateSend: 0.07,
  reload: 0.012,
};
/** Every this many rounds the licence is released on the server while edits are queued. */
const TOKEN_EXPIRY_EVERY = 6;
/** Per round: the browser fires `online` (retry times ignored). */
const ONLINE_RATE = 0.25;

const DB = SEED_IDS.db.demo;
const ARCHIVES = [SEED_IDS.archive.invoices, SEED_IDS.archive.paidInvoices];
/** Character, character and number fields of both archives, editable by `user` (permission 1024). */
const FIELDS = [F.status, F.title, F.invoiceNumber] as const;
const valueOf = (field: number, n: number): string => (field === F.invoiceNumber ? String(900_000_000 + n) : `e${n}`);

interface Doc {
  id: number;
  archive_id: number;
  secure_hash: string;
  rev: number;
  fields: Record<string, unknown>;
}
interface AuditRow {
  id: number;
  archive_id: number;
  document_id: number;
  message: string;
  details: { Rev: number; Fields: { ID: number; Old: string; New: string }[]; IdempotencyKey: string | null };
}

let server: TestServer;
let base = '';

beforeAll(async () => {
  server = await startServer({ seed: { docs: 150 } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await server?.close();
});

// About 40 s on a quiet 2-CPU machine (1,500 requests to an in-memory server, the outbox on
// fake-indexeddb); over 120 s with a browser test beside it. The limit is there to catch a hang.
it('1,000+ edits under injected faults: none lost, none applied twice, order kept', { timeout: 600_000 }, async () => {
  const started = Date.now();
  const random = prng(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const realFetch = (input: string, init?: RequestInit) => fetch(input, init);
  const inj = faultInjector(realFetch, random, RATES);
  configureHttp({ baseUrl: () => base, token: getToken, fetchFn: inj.fetchFn });

  const docs = (
    await server.store.query<Doc>(
      'SELECT id, archive_id, secure_hash, rev, fields FROM documents WHERE archive_id IN (SELECT jsonb_array_elements_text($1::jsonb)::int) AND NOT deleted ORDER BY id LIMIT $2',
      [JSON.stringify(ARCHIVES), DOCS],
    )
  ).rows.map((d) => ({ ...d, rev: Number(d.rev) }));
  expect(docs.length).toBe(DOCS);
  expect(new Set(docs.map((d) => d.archive_id)).size).toBe(ARCHIVES.length);
  const auditBefore = Number((await server.store.query<{ m: number | null }>('SELECT max(id) AS m FROM audit_entries')).rows[0]?.m ?? 0);
  const keysBefore = Number((await server.store.query<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys')).rows[0]!.n);

  // --- the session: signed in as `user`, the token stamped at send time ---------------------------
  const signIn = async () => {
    const r = await realFetch(`${base}/api/licenses`, { headers: { authorization: basic('user', 'user'), accept: 'application/json' } });
    expect(r.status).toBe(200);
    const { Token } = (await r.json()) as { Token: string };
    await setSession({ token: Token, licenceType: 1, userName: 'user' });
  };
  await signIn();

  // --- the page: its Dexie database; a reload opens it again ----------------------------------------
  const dbName = `outbox-fault-${SEED}-${Math.random()}`;
  let page = new ArchiveDb(dbName);
  let reloads = 0;
  let tokenExpiries = 0;
  /** The licence was released on the server; the page does not know until it gets a 401. */
  let expired = false;
  let signIns = 0;
  const sessionErrors: unknown[] = [];

  // --- what the user meant: per document and field, the values in the order they were saved ------
  const intended = new Map<string, Map<number, string[]>>();
  const keyOf = new Map<string, { target: string; values: Record<number, string> }>();
  const docByTarget = new Map(docs.map((d) => [outboxTarget(DB, d.archive_id, d.id), d]));

  /**
   * The Rev the page knows for a document: the answer of its newest applied edit, else the Rev it
   * was read at. Edits still queued are based on the same Rev and moved on by the drain (rebase).
   */
  const knownRev = async (d: Doc): Promise<number> => {
    const target = outboxTarget(DB, d.archive_id, d.id);
    const done = (await page.outbox.where('[target+seq]').between([target, -Infinity], [target, Infinity]).toArray()).filter((e) => e.state === 'done');
    const last = done[done.length - 1]?.result as { Rev?: number } | undefined;
    return typeof last?.Rev === 'number' ? last.Rev : d.rev;
  };

  let n = 0;
  const enqueueBatch = async (size: number) => {
    for (let i = 0; i < size && n < EDITS; i++, n++) {
      const d = pick(docs);
      const fields = random() < 0.2 ? [F.status, pick([F.title, F.invoiceNumber])] : [pick(FIELDS)];
      const target = outboxTarget(DB, d.archive_id, d.id);
      const values: Record<number, string> = {};
      for (const f of fields) values[f] = valueOf(f, n);
      const id = await enqueueFieldEdit(
        { dbId: DB, archiveId: d.archive_id, docId: d.id, hash: d.secure_hash, fields: fields.map((f) => ({ ID: f, VAL: values[f]! })), baseStamp: await knownRev(d) },
        page,
      );
      keyOf.set(id, { target, values });
      const perField = intended.get(target) ?? new Map<number, string[]>();
      for (const f of fields) perField.set(f, [...(perField.get(f) ?? []), values[f]!]);
      intended.set(target, perField);
    }
  };

  // --- the rounds: enqueue some edits, maybe lose the licence, drain under faults -----------------
  let clientNow = Date.now();
  const totals = { sent: 0, done: 0, retry: 0, conflict: 0, failed: 0, stopped: 0, noTokenDrains: 0 };
  const add = (r: DrainResult) => {
    totals.sent += r.sent;
    totals.done += r.done;
    totals.retry += r.retry;
    totals.conflict += r.conflict;
    totals.failed += r.failed;
    if (r.stopped) totals.stopped++;
  };
  const unfinished = () => page.outbox.where('state').anyOf('queued', 'sending', 'failed', 'conflict').count();

  let rounds = 0;
  for (; rounds < MAX_ROUNDS; rounds++) {
    if (n < EDITS) await enqueueBatch(20 + Math.floor(random() * 60));
    else if ((await unfinished()) === 0) break;

    if (!getToken()) {
      // Signed out after a 401: the drain sends nothing and keeps everything queued ...
      const r = await runDrain({ database: page, force: true, onSessionError: (e) => sessionErrors.push(e) });
      expect(r.sent).toBe(0);
      totals.noTokenDrains++;
      // ... until the user signs in again.
      await signIn();
      signIns++;
      expired = false;
    } else if (!expired && rounds % TOKEN_EXPIRY_EVERY === 2) {
      const r = await realFetch(`${base}/api/licenses/${encodeURIComponent(getToken()!)}`, { method: 'DELETE' });
      expect(r.status).toBe(204);
      tokenExpiries++;
      expired = true;
    }

    clientNow += Math.floor(random() * 90_000);
    const drainP = runDrain({
      database: page,
      force: random() < ONLINE_RATE,
      now: () => clientNow,
      onSessionError: (e) => {
        sessionErrors.push(e);
        void clearSession();
      },
    });
    const outcome = await Promise.race([drainP, inj.pageKilled().then(() => 'killed' as const)]);
    if (outcome === 'killed') {
      // The page died mid-drain: its drain never finishes, whatever it marked 'sending' stays so.
      reloads++;
      page.close();
      page = new ArchiveDb(dbName);
      inj.nextPage();
      continue;
    }
    add(outcome);
    if (outcome.conflict || outcome.failed) break;
  }

  // --- the client's view ----------------------------------------------------------------------------
  inj.enabled = false;
  await inj.settle();
  const entries: OutboxEntry[] = await page.outbox.orderBy('seq').toArray();
  const byState: Record<string, number> = {};
  for (const e of entries) byState[e.state] = (byState[e.state] ?? 0) + 1;
  const diag = () =>
    JSON.stringify({ seed: SEED, rounds, enqueued: n, byState, totals, faults: inj.counts, reloads, tokenExpiries, stuck: entries.filter((e) => e.state !== 'done').slice(0, 5) }, null, 1);
  expect(n, diag()).toBe(EDITS);
  expect(entries.length, diag()).toBe(EDITS);
  expect(byState, diag()).toEqual({ done: EDITS });

  // --- the server's view: one 'updated' audit entry per edit, with its key ----------------------------
  const audit = (
    await server.store.query<AuditRow>(
      "SELECT id, archive_id, document_id, message, details FROM audit_entries WHERE id > $1 AND category = 'updated' ORDER BY id",
      [auditBefore],
    )
  ).rows;
  const rowsByKey = new Map<string, AuditRow[]>();
  for (const a of audit) {
    const k = a.details.IdempotencyKey ?? '(none)';
    rowsByKey.set(k, [...(rowsByKey.get(k) ?? []), a]);
  }
  let lost = 0;
  let duplicated = 0;
  const problems: string[] = [];
  for (const [key, edit] of keyOf) {
    const rows = rowsByKey.get(key) ?? [];
    if (rows.length === 0) {
      lost++;
      problems.push(`lost ${key} ${edit.target} ${JSON.stringify(edit.values)}`);
    } else if (rows.length > 1) {
      duplicated += rows.length - 1;
      problems.push(`applied ${rows.length}x ${key} ${edit.target} ${JSON.stringify(edit.values)}`);
    } else {
      const row = rows[0]!;
      const applied = Object.fromEntries(row.details.Fields.map((f) => [f.ID, f.New]));
      if (outboxTarget(DB, row.archive_id, row.document_id) !== edit.target || JSON.stringify(applied) !== JSON.stringify(edit.values)) {
        problems.push(`key ${key} applied as ${JSON.stringify(applied)} to ${row.document_id}, meant ${JSON.stringify(edit.values)} to ${edit.target}`);
      }
    }
  }
  const strangers = audit.filter((a) => !keyOf.has(a.details.IdempotencyKey ?? ''));
  duplicated += strangers.length;
  for (const a of strangers.slice(0, 5)) problems.push(`audit entry without a known key: ${a.id} ${a.message}`);
  // Every value was used once: it may appear as New in exactly one audit entry.
  const newValues = new Map<string, number>();
  for (const a of audit) for (const f of a.details.Fields) newValues.set(`${a.document_id}|${f.ID}|${f.New}`, (newValues.get(`${a.document_id}|${f.ID}|${f.New}`) ?? 0) + 1);
  for (const [v, c] of newValues) if (c > 1) problems.push(`value applied ${c}x: ${v}`);

  // Order and final values: per document and field, the audit's chain of values is the saved order.
  let fieldsChecked = 0;
  const finals = new Map(
    (await server.store.query<Doc>('SELECT id, archive_id, secure_hash, rev, fields FROM documents WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::int)', [JSON.stringify(docs.map((d) => d.id))])).rows.map((d) => [d.id, d]),
  );
  for (const [target, perField] of intended) {
    const d = docByTarget.get(target)!;
    const stored = finals.get(d.id)!;
    for (const [field, values] of perField) {
      fieldsChecked++;
      const final = String(stored.fields?.[String(field)] ?? '');
      if (final !== values[values.length - 1]) problems.push(`${target} field ${field}: server has ${final}, last saved ${values[values.length - 1]}`);
      const chain = audit.filter((a) => a.document_id === d.id).flatMap((a) => a.details.Fields.filter((f) => f.ID === field));
      const expectedOld = [String(d.fields?.[String(field)] ?? ''), ...values.slice(0, -1)];
      if (JSON.stringify(chain.map((c) => c.New)) !== JSON.stringify(values)) problems.push(`${target} field ${field}: applied in order ${chain.map((c) => c.New).join(',')}, saved ${values.join(',')}`);
      else if (JSON.stringify(chain.map((c) => c.Old)) !== JSON.stringify(expectedOld)) problems.push(`${target} field ${field}: audit Old values do not chain`);
    }
  }
  const keysAfter = Number((await server.store.query<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys')).rows[0]!.n);

  const c = inj.counts;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `fault test: ${keyOf.size} edits over ${docs.length} documents (${fieldsChecked} document fields), ${lost} lost, ${duplicated} duplicated, ` +
      `${audit.length} audit entries, ${totals.conflict} conflicts, ${totals.failed} failed; ` +
      `${c.requests} requests (${c.passed} untouched, ${c.answers409} answered 409) in ${rounds} rounds, ${seconds} s, seed ${SEED}; ` +
      `faults injected: cut-before=${c.cutBefore}, cut-after-commit=${c.cutAfterCommit}, cut-in-flight=${c.cutInFlight}, 503=${c.unavailable503}, ` +
      `500-after-commit=${c.error500AfterCommit}, duplicate-sends=${c.duplicateSend}, reloads=${reloads}, token-expiries=${tokenExpiries} ` +
      `(401 answers ${sessionErrors.length}, sign-ins ${signIns}, drains without token ${totals.noTokenDrains})`,
  );

  expect(problems.slice(0, 20), diag()).toEqual([]);
  expect(lost).toBe(0);
  expect(duplicated).toBe(0);
  expect(audit.length).toBe(EDITS);
  expect(totals.conflict).toBe(0);
  expect(totals.failed).toBe(0);
  expect(keysAfter - keysBefore).toBeGreaterThanOrEqual(EDITS);
  // The faults really happened.
  expect(reloads).toBeGreaterThan(0);
  expect(tokenExpiries).toBeGreaterThan(0);
  expect(signIns).toBe(sessionErrors.length);
  expect(tokenExpiries - signIns).toBeLessThanOrEqual(1);
  for (const k of ['cutBefore', 'cutAfterCommit', 'cutInFlight', 'unavailable503', 'error500AfterCommit', 'duplicateSend'] as const) expect(c[k], k).toBeGreaterThan(0);
  expect(c.answers409).toBeGreaterThan(0);
});
