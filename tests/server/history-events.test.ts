/**
 * History entries carry their parts (Event), so that the client writes them in its user's language;
 * Message stays the English sentence for older clients (the archive-ops spec §3-4; src/api/audit.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveHistory, DocumentHistory, HISTORY_EVENT_KINDS } from '../../src/api/audit';
import { F, SEED_IDS } from '../../server/seed/catalog';
import { signIn, startServer, type TestServer } from './helpers';

const A = SEED_IDS.archive;
let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startServer({ seed: { docs: 40 } });
  token = await signIn(s, 'user');
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string) => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${token}` });

describe('history entries in parts', () => {
  it('every seeded entry of a document and of an archive has a known Kind beside its English Message', async () => {
    const page = ArchiveHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/audit?Page=1&DocLimit=200`)).json());
    expect(page.Items.length).toBeGreaterThan(20);
    for (const it of page.Items) {
      expect(HISTORY_EVENT_KINDS as readonly string[], it.Message).toContain(it.Event?.Kind);
      expect(it.Message).not.toBe('');
    }
    const kinds = new Set(page.Items.map((i) => i.Event?.Kind));
    expect(kinds.size).toBeGreaterThanOrEqual(8);
    const printed = page.Items.find((i) => i.Event?.Kind === 'printed');
    if (printed) expect(printed.Message).toContain(String(printed.Event?.Count));
  });

  it('a field edit answers fields-changed with the field name and the old and new wire values', async () => {
    const doc = (await s.store.query<{ id: number; secure_hash: string; fields: Record<string, string> }>('SELECT id, secure_hash, fields FROM documents WHERE archive_id = $1 ORDER BY id LIMIT 1', [A.invoices])).rows[0]!;
    const old = doc.fields[String(F.status)] ?? '';
    const code = doc.fields[String(F.accountCode)] ?? '';
    expect(code, 'the seed gives invoices an account code').not.toBe('');
    const next = old === 'Paid' ? 'Approved' : 'Paid';
    const put = await s.app.inject({
      method: 'PUT',
      url: `/api/UpdateDocument/databases/1/archive/${A.invoices}/document/${doc.id}/FieldData?token=${token}&secureId=${doc.secure_hash}`,
      payload: [{ ID: F.status, VAL: next }, { ID: F.accountCode, VAL: '' }],
    });
    expect(put.statusCode, put.body).toBe(200);
    const h = DocumentHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/documents/${doc.id}/audit?SecureId=${doc.secure_hash}`)).json());
    expect(h[0]?.Category).toBe('updated');
    expect(h[0]?.Event).toEqual({
      Kind: 'fields-changed',
      Changes: [
        { Field: 'Status', Old: old, New: next },
        { Field: 'Account Code', Old: code, New: '' },
      ],
    });
    expect(h[0]?.Message).toContain(`Field Status changed from ${old || '(empty)'} to ${next}`);
  });

  it('an entry without parts answers no Event (the client shows its Message)', async () => {
    const doc = (await s.store.query<{ id: number; secure_hash: string }>('SELECT id, secure_hash FROM documents WHERE archive_id = $1 ORDER BY id DESC LIMIT 1', [A.invoices])).rows[0]!;
    await s.store.query(
      `INSERT INTO audit_entries (database_id, archive_id, document_id, message, category, time, user_name) VALUES (1, $1, $2, 'Something older', 'viewed', now() + interval '1 hour', 'admin')`,
      [A.invoices, doc.id],
    );
    const h = DocumentHistory.parse((await get(`/api/dbs/1/archives/${A.invoices}/documents/${doc.id}/audit?SecureId=${doc.secure_hash}`)).json());
    expect(h[0]).toMatchObject({ Message: 'Something older', Event: null });
  });
});
