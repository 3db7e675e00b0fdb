import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../../server/app';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
});
afterAll(async () => {
  await s?.close();
});

describe('store', () => {
  it('returns int8 and numeric as numbers, jsonb parsed, timestamptz as Date', async () => {
    const r = await s.store.query<{ n: number; x: number; j: unknown; t: Date }>("SELECT count(*) AS n, 12.50::numeric AS x, '{\"a\":[1]}'::jsonb AS j, now() AS t FROM users");
    expect(r.rows[0]).toMatchObject({ n: 5, x: 12.5, j: { a: [1] } });
    expect(r.rows[0]?.t).toBeInstanceOf(Date);
  });

  it('rolls a failed transaction back', async () => {
    await expect(
      s.store.transaction(async (tx) => {
        await tx.query("INSERT INTO stamps (text) VALUES ('ROLLBACK ME')");
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect((await s.store.query("SELECT 1 FROM stamps WHERE text = 'ROLLBACK ME'")).rowCount).toBe(0);
  });

  it('bulk-loads values that need quoting', async () => {
    await s.store.bulkInsert('stamps', ['text'], [['a, "quoted"\nline'], ['']]);
    const r = await s.store.query<{ text: string }>("SELECT text FROM stamps WHERE text LIKE 'a, %' OR text = ''");
    expect(r.rows.map((x) => x.text).sort()).toEqual(['', 'a, "quoted"\nline']);
  });

  it('a server started from a snapshot has its data and files, and its writes stay its own', async () => {
    if (s.store.kind !== 'pglite') return;
    const doc = (await s.store.query<{ sha256: string }>('SELECT b.sha256 FROM blobs b ORDER BY b.sha256 LIMIT 1')).rows[0]!;
    await s.store.query("INSERT INTO stamps (text) VALUES ('IN THE SNAPSHOT')");
    const snapshot = { database: await s.store.snapshot!(), filesDir: s.files.root };
    const copy = await buildServer({ dataDir: 'memory://', distDir: join(tmpdir(), 'no-such-dist-dir'), snapshot, jobs: { run: false } });
    try {
      expect((await copy.store.query("SELECT 1 FROM stamps WHERE text = 'IN THE SNAPSHOT'")).rowCount).toBe(1);
      expect((await copy.store.query('SELECT count(*) AS n FROM documents')).rows).toEqual((await s.store.query('SELECT count(*) AS n FROM documents')).rows);
      expect(await copy.files.get(doc.sha256)).toEqual(await s.files.get(doc.sha256));
      await copy.store.query("INSERT INTO stamps (text) VALUES ('ONLY IN THE COPY')");
      expect((await s.store.query("SELECT 1 FROM stamps WHERE text = 'ONLY IN THE COPY'")).rowCount).toBe(0);
    } finally {
      await copy.close();
    }
  });

  it('records migrations and has pg_trgm where possible', async () => {
    const r = await s.store.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(r.rows.map((x) => x.name).slice(0, 2)).toEqual(['001_schema.sql', '002_document_indexes.sql']);
    if (s.store.kind === 'pglite') expect(s.store.hasTrgm).toBe(true);
  });
});

describe('seed', () => {
  it('has fields of every type and every Prop flag the spec names', async () => {
    const r = await s.store.query<{ type: number; prop: number; mask: string | null; regex: string | null; parent_id: number | null; list_f1: number | null }>('SELECT type, prop, mask, regex, parent_id, list_f1 FROM fields');
    expect(new Set(r.rows.map((f) => f.type))).toEqual(new Set([1, 2, 3, 4]));
    for (const bit of [2, 4, 8, 16, 32, 64, 128, 256, 1024, 2048]) expect(r.rows.some((f) => (f.prop & bit) !== 0)).toBe(true);
    expect(r.rows.some((f) => f.parent_id !== null)).toBe(true);
    expect(r.rows.some((f) => f.list_f1 !== null)).toBe(true);
    expect(r.rows.some((f) => f.regex?.startsWith('(?#'))).toBe(true);
    expect(r.rows.filter((f) => f.mask).length).toBeGreaterThanOrEqual(2);
  });

  it('has the saved searches the spec describes', async () => {
    const r = await s.store.query<{ props: number; settings: number }>('SELECT props, settings FROM searches');
    expect(r.rows.some((x) => (x.settings & 8) !== 0)).toBe(true);
    expect(r.rows.some((x) => (x.props & 1) !== 0)).toBe(true);
    expect(r.rows.some((x) => (x.props & 32) !== 0)).toBe(true);
    expect(r.rows.some((x) => (x.settings & 4) === 0)).toBe(true);
    const tabs = await s.store.query('SELECT * FROM search_view_tabs WHERE search_id = $1', [SEED_IDS.search.invoicesByStatus]);
    expect(tabs.rowCount).toBe(4);
  });

  it('has archives with revision control, a versions archive and sub-archives', async () => {
    const r = await s.store.query<{ props: number; parent_id: number | null }>('SELECT props, parent_id FROM archives');
    expect(r.rows.some((a) => (a.props & 1) !== 0)).toBe(true);
    expect(r.rows.some((a) => (a.props & 16) !== 0)).toBe(true);
    expect(r.rows.some((a) => a.parent_id !== null)).toBe(true);
    const hr = await s.store.query('SELECT 1 FROM archive_permissions WHERE archive_id = $1 AND user_id = $2', [SEED_IDS.archive.hrFiles, SEED_IDS.user.user]);
    expect(hr.rowCount).toBe(0);
  });

  it('stores real PDFs with searchable text and multi-page G4 TIFFs', async () => {
    const docs = await s.store.query<{ id: number; file_type: string; page_count: number; sha256: string; fields: Record<string, string> }>(
      'SELECT d.id, d.file_type, d.page_count, f.sha256, d.fields FROM documents d JOIN document_files f ON f.document_id = d.id ORDER BY d.id',
    );
    expect(docs.rowCount).toBe(40);
    const pdf = docs.rows.find((d) => d.file_type === 'PDF');
    const bytes = await s.files.get(pdf?.sha256 as string);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const tif = docs.rows.find((d) => d.file_type === 'TIF' && d.page_count > 1);
    expect(tif).toBeDefined();
    const meta = await sharp(await s.files.get(tif?.sha256 as string)).metadata();
    expect(meta.format).toBe('tiff');
    expect(meta.pages).toBe(tif?.page_count);
    const hits = await s.store.query("SELECT id FROM documents WHERE content_tsv @@ plainto_tsquery('english', 'invoice')");
    expect(hits.rowCount).toBeGreaterThan(0);
    const withPages = docs.rows.find((d) => d.fields[String(F.pageCount)] !== undefined);
    expect(withPages?.fields[String(F.pageCount)]).toBe(String(withPages?.page_count));
  });

  it('is deterministic', async () => {
    const r = await s.store.query<{ secure_hash: string; fields: unknown }>('SELECT secure_hash, fields FROM documents WHERE id = 1');
    expect(r.rows[0]?.secure_hash).toHaveLength(32);
    const inbox = await s.store.query('SELECT 1 FROM inbox_files');
    expect(inbox.rowCount).toBeGreaterThan(0);
  });
});
