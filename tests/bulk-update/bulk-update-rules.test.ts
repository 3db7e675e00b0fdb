import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Field } from '../../src/api/archives';
import type { SearchPrompt } from '../../src/api/search';
import { configureHttp } from '../../src/api/http';
import { ArchiveDb } from '../../src/db/db';
import { basicCall, basicProblems, buildBasicRequest, bulkUpdateBlocked, bulkUpdateShown, updatableFields } from '../../src/features/bulk-update/bulk-update-rules';
import { csvProblems, csvRowOf, guessKeyColumns, initialCsvForm, mappablePrompts } from '../../src/features/bulk-update/csv-update';
import { drainOnce } from '../../src/sync/drain';
import '../../src/sync/all-kinds';
import { BULK_UPDATE_KIND, enqueueBulkUpdate } from '../../src/sync/kinds/bulk-update';
import { jsonResponse } from '../api/fake-fetch';

const field = (f: Partial<Field> & Pick<Field, 'ID' | 'Name' | 'Type'>): Field => ({ Size: 50, Prop: 0, ...f }) as Field;
const FIELDS = [
  field({ ID: 1, Name: 'Title', Type: 1, Size: 10, Prop: 2 }),
  field({ ID: 2, Name: 'Number', Type: 2 }),
  field({ ID: 3, Name: 'Date', Type: 3, Mask: 'MM/dd/yyyy' }),
  field({ ID: 4, Name: 'Tags', Type: 1, Prop: 32, MultiValue: true }),
  field({ ID: 5, Name: 'Page Count', Type: 2, Prop: 16 }),
];

describe('who may bulk update', () => {
  it('licence 4 gets no button; a revision-control archive or no edit right refuses with the reason', () => {
    expect(bulkUpdateShown(4)).toBe(false);
    expect(bulkUpdateShown(1)).toBe(true);
    expect(bulkUpdateBlocked(1 | 4, 0xffff)).toBe('ERROR_UPDATE_REVISION_ARCHIVE');
    expect(bulkUpdateBlocked(0, 1)).toBe('BULK_UPDATE_NO_EDIT_RIGHT');
    expect(bulkUpdateBlocked(0, 1 | 1024)).toBeNull();
    expect(bulkUpdateBlocked(null, null)).toBeNull();
  });
  it('read-only fields (Prop 16 page count ...) are not offered', () => {
    expect(updatableFields(FIELDS).map((f) => f.ID)).toEqual([1, 2, 3, 4]);
  });
});

describe('the basic tab', () => {
  const ctx = { searchId: 1, checked: 2 };
  it('needs at least one new value, no invalid value, a search and checked documents for the checked scope', () => {
    expect(basicProblems({ scope: 'checked', values: {} }, FIELDS, ctx, 'en-US').map((p) => p.key)).toEqual(['BULK_UPDATE_NEED_VALUE']);
    expect(basicProblems({ scope: 'checked', values: { 2: '12ab', 3: '02/31/2026', 1: '' } }, FIELDS, ctx, 'en-US').map((p) => [p.field, p.key])).toEqual([
      [1, 'FIELD_REQUIRED'],
      [2, 'FIELD_INVALID_NUMBER'],
      [3, 'FIELD_INVALID_DATE'],
    ]);
    expect(basicProblems({ scope: 'checked', values: { 2: '5' } }, FIELDS, { searchId: 0, checked: 0 }, 'en-US').map((p) => p.key)).toEqual(['BULK_UPDATE_NEED_SEARCH', 'ERROR_NO_DOCUMENTS_SELECTED']);
    expect(basicProblems({ scope: 'all', values: { 2: '5' } }, FIELDS, { searchId: 1, checked: 0 }, 'en-US')).toEqual([]);
  });
  it('sends wire values: dates ISO from the user\'s locale, multi-value split on ";"', () => {
    const c = { dbId: 1, archiveId: 6, searchId: 2, criteria: '[]', checked: [{ id: 10, archiveId: 6 }] };
    const body = buildBasicRequest({ scope: 'checked', values: { 3: '31.12.2025', 4: 'a; b' } }, FIELDS, c, 'de-DE');
    expect(body).toEqual({
      DatabaseID: 1, ArchiveID: 6, SearchID: 2, SearchInfo: { SearchCriteria: '[]' }, UpdateType: 'documentSelectUpdate',
      Docs: [{ ArchiveID: 6, DocID: 10 }], Values: [{ ID: 3, VAL: '2025-12-31' }, { ID: 4, MVAL: ['a', 'b'] }],
    });
    expect(basicCall(body)).toBe('UserPassedUpdateSearch');
    const all = buildBasicRequest({ scope: 'all', values: { 2: '7' } }, FIELDS, c, 'en-US');
    expect(all.Docs).toBeUndefined();
    expect(basicCall(all)).toBe('UserPassedBulkUpdateSearch');
  });
});

describe('the advanced tab', () => {
  it('needs a file, one-character delimiters that differ, DocumentID and ArchiveID mapped and one mapping; a search update a search and a prompt', () => {
    const f = initialCsvForm();
    expect(csvProblems(f, { file: false, searchId: 1 })).toEqual(['BULK_UPDATE_CSV_NEED_FILE', 'BULK_UPDATE_CSV_NEED_KEYS', 'BULK_UPDATE_CSV_NEED_MAPPING']);
    expect(csvProblems({ ...f, stringDelimiter: ',', docColumn: 0, archiveColumn: 1, fields: { 2: 2 } }, { file: true, searchId: 1 })).toEqual(['CSV_DELIMITERS_SAME']);
    expect(csvProblems({ ...f, fieldDelimiter: ';;', docColumn: 0, archiveColumn: 1, fields: { 2: 2 } }, { file: true, searchId: 1 })).toEqual(['CSV_DELIMITER_ONE_CHARACTER']);
    expect(csvProblems({ ...f, mode: 'search', fields: { 2: 2 } }, { file: true, searchId: 0 })).toEqual(['ERROR_CSV_UPDATE_DIRECT_SEARCH_REQUIRED', 'BULK_UPDATE_CSV_NEED_PROMPTS']);
    expect(csvProblems({ ...f, docColumn: 0, archiveColumn: 1, fields: { 2: 2 } }, { file: true, searchId: 0 })).toEqual([]);
  });
  it('finds the key columns by their header', () => {
    expect(guessKeyColumns(['Title', 'Document ID', 'archive_id'])).toEqual({ docColumn: 1, archiveColumn: 2 });
    expect(guessKeyColumns(['a'])).toEqual({ docColumn: -1, archiveColumn: -1 });
  });
  it('turns a row into wire values; a row without its keys or with a bad value is not sent', () => {
    const f = { ...initialCsvForm(), docColumn: 0, archiveColumn: 1, fields: { 3: 2, 1: 3 } };
    const row = (values: string[]) => csvRowOf(f, FIELDS, [], (c) => values[c] ?? '', 7, 'en-US');
    expect(row(['11', '6', '03/04/2026', 'A, "b"'])).toEqual({ DocID: 11, ArchiveID: 6, Values: [{ ID: 1, VAL: 'A, "b"' }, { ID: 3, VAL: '2026-03-04' }], Line: 7 });
    expect(row(['x', '6', '03/04/2026', 'A'])).toBeNull();
    expect(row(['11', '6', '02/31/2026', 'A'])).toBeNull();
  });
  it('a search update row names its prompts (an empty one sets no condition)', () => {
    const prompts = [
      { ID: 8, Prompt: 'Title', Type: 1, Condition: 'Contains' },
      { ID: 9, Prompt: 'Amount', Type: 4, Condition: 'Range' },
      { ID: 10, Prompt: 'Customer', Type: 1, Condition: 'Equals' },
    ] as SearchPrompt[];
    expect(mappablePrompts(prompts).map((p) => p.ID)).toEqual([8, 10]);
    const f = { ...initialCsvForm(), mode: 'search' as const, prompts: { 8: 0, 10: 1 }, fields: { 2: 2 } };
    expect(csvRowOf(f, FIELDS, prompts, (c) => ['Lease', '', '5'][c]!, 2, 'en-US')).toEqual({ Criteria: JSON.stringify([{ ID: 8, VAL: 'Lease' }]), Values: [{ ID: 2, VAL: '5' }], Line: 2 });
    expect(csvRowOf(f, FIELDS, prompts, (c) => ['', '', '5'][c]!, 2, 'en-US')).toBeNull();
  });
});

describe('the bulk-update outbox kind', () => {
  it('sends one POST of the Update call with the Idempotency-Key and no Limit, and tracks the job', async () => {
    const database = new ArchiveDb(`bulk-${Math.random()}`);
    const calls: { url: URL; init: RequestInit }[] = [];
    configureHttp({
      baseUrl: () => 'http://test',
      token: () => 'tok-1',
      fetchFn: async (url, init) => {
        calls.push({ url: new URL(String(url)), init: init ?? {} });
        return jsonResponse({ JobId: 44, State: 'queued', Count: 2 });
      },
    });
    const body = buildBasicRequest({ scope: 'checked', values: { 2: '5' } }, FIELDS, { dbId: 1, archiveId: 6, searchId: 2, criteria: '', checked: [{ id: 10, archiveId: 6 }, { id: 11, archiveId: 6 }] }, 'en-US', 20);
    const id = await enqueueBulkUpdate({ call: 'UserPassedUpdateSearch', body, archiveId: 6, count: 2, title: 'Bulk update of 2 documents' }, database, 'user');
    await drainOnce({ database, token: () => 'tok-1', user: () => 'user', force: true, onSessionError: () => undefined });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url.pathname).toBe('/api/dbs/1/bulkupdate/UserPassedUpdateSearch');
    expect(new Headers(calls[0]!.init.headers).get('Idempotency-Key')).toBe(id);
    const sent = JSON.parse(String(calls[0]!.init.body)) as Record<string, unknown>;
    expect(sent.Limit).toBeUndefined();
    expect(sent.Values).toEqual([{ ID: 2, VAL: '5' }]);
    const entry = await database.outbox.where('id').equals(id).first();
    expect(entry?.kind).toBe(BULK_UPDATE_KIND);
    expect(entry?.state).toBe('done');
    const job = await database.jobs.get('44');
    // Named by its kind and Count when shown (the same words as a device that learns of it from the server's list).
    expect(job).toMatchObject({ kind: 'bulk-update', total: 2, archiveId: 6 });
    expect(job?.title).toBeUndefined();
  });
});
