import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MERGE_MAX_DOCUMENTS, type MergeRequest } from '../../src/api/documents';
import { configureHttp } from '../../src/api/http';
import { ArchiveDb } from '../../src/db/db';
import { mergeBlockedReason, mergeCountProblem, moveItem } from '../../src/features/documents/document-rules';
import { historyMessageParts } from '../../src/features/history/history-logic';
import { drainOnce } from '../../src/sync/drain';
import '../../src/sync/all-kinds';
import { enqueueMerge, isMergeMeta, mergeOutcome, type MergeMeta } from '../../src/sync/kinds/merge';
import { jsonResponse } from '../api/fake-fetch';

const FULL = 1 | 2 | 4 | 8;

describe('who may merge and append (the user-app spec §6)', () => {
  it('the read-only licence (type 4) blocks both, whatever the bits', () => {
    expect(mergeBlockedReason('Merge', 4, FULL)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
    expect(mergeBlockedReason('Append', 4, FULL)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
  });
  it('merge needs bit 2, append bit 4, each on its own', () => {
    expect(mergeBlockedReason('Merge', 1, FULL & ~2)).toBe('DOCUMENTS_NO_MERGE_RIGHT');
    expect(mergeBlockedReason('Append', 1, FULL & ~2)).toBeNull();
    expect(mergeBlockedReason('Append', 1, FULL & ~4)).toBe('DOCUMENTS_NO_APPEND_RIGHT');
    expect(mergeBlockedReason('Merge', 1, FULL & ~4)).toBeNull();
  });
  it('unknown bits block nothing (the server has the last word)', () => {
    expect(mergeBlockedReason('Merge', 1, null)).toBeNull();
    expect(mergeBlockedReason('Append', undefined, null)).toBeNull();
  });
});

describe('how many checked documents (the user-app spec §5)', () => {
  it('none checked is the spec error for both', () => {
    expect(mergeCountProblem('Merge', 0)).toBe('ERROR_NO_DOCUMENTS_SELECTED');
    expect(mergeCountProblem('Append', 0)).toBe('ERROR_NO_DOCUMENTS_SELECTED');
  });
  it('merge needs at least 2 (and at most the server limit)', () => {
    expect(mergeCountProblem('Merge', 1)).toBe('DOCUMENTS_MERGE_NEEDS_TWO');
    expect(mergeCountProblem('Merge', 2)).toBeNull();
    expect(mergeCountProblem('Merge', MERGE_MAX_DOCUMENTS)).toBeNull();
    expect(mergeCountProblem('Merge', MERGE_MAX_DOCUMENTS + 1)).toBe('DOCUMENTS_MERGE_TOO_MANY');
  });
  it('append needs exactly 1', () => {
    expect(mergeCountProblem('Append', 1)).toBeNull();
    expect(mergeCountProblem('Append', 2)).toBe('DOCUMENTS_APPEND_NEEDS_ONE');
  });
});

describe('reordering the merge list', () => {
  it('moves an item up or down, and not past either end', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('the merge outbox kind', () => {
  const request: MergeRequest = {
    Type: 'Merge',
    Documents: [{ ArchiveID: 1, DocID: 12 }, { ArchiveID: 1, DocID: 13 }],
    BaseDocument: { Type: 'Archive', ArchiveID: 1, DocID: 11 },
    Target: { Type: 'Archive', Id: 1, AppendType: 'Remove' },
  };
  const meta: Omit<MergeMeta, 'dbId'> = {
    type: 'Merge', base: { archiveId: 1, id: 11, title: 'Invoice 11' }, count: 3,
    removed: [{ archiveId: 1, id: 12 }, { archiveId: 1, id: 13 }], title: 'Merge 3 documents into Invoice 11',
  };
  const setup = (answer: () => Response) => {
    const database = new ArchiveDb(`merge-${Math.random()}`);
    const calls: { url: string; init?: RequestInit }[] = [];
    configureHttp({ baseUrl: () => 'http://test', token: () => 'tok-1', fetchFn: async (url, init) => (calls.push({ url: String(url), init }), answer()) });
    const drain = () => drainOnce({ database, token: () => 'tok-1', user: () => 'user', force: true, onSessionError: () => undefined });
    return { database, calls, drain, entry: async () => (await database.outbox.orderBy('seq').toArray())[0]! };
  };

  it('is ONE POST of the Merge object with the entry id as Idempotency-Key, behind the base document\'s edits', async () => {
    const t = setup(() => jsonResponse({ DocID: 11, ArchiveID: 1, PageCount: 7 }));
    const id = await enqueueMerge({ dbId: 1, request, meta }, t.database, 'user');
    const queued = await t.entry();
    expect(queued).toMatchObject({ kind: 'merge', method: 'POST', path: '/api/dbs/1/merge', target: '1|1|11', state: 'queued', body: request });
    expect(isMergeMeta(queued.meta)).toBe(true);
    expect(mergeOutcome(queued)).toBeNull();
    await t.drain();
    expect(t.calls).toHaveLength(1);
    const headers = new Headers(t.calls[0]!.init?.headers);
    expect(headers.get('Idempotency-Key')).toBe(id);
    expect(JSON.parse(String(t.calls[0]!.init?.body))).toEqual(request);
    const done = await t.entry();
    expect(done.state).toBe('done');
    expect(mergeOutcome(done)).toEqual({ key: 'MERGE_SUCCESS', vars: { count: 3, id: 11, pages: 7 } });
  });

  it('a refusal ends the entry failed, worded with the server\'s reason', async () => {
    const t = setup(() => jsonResponse({ Message: 'You do not have permission to merge documents of archive Invoices', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 }));
    await enqueueMerge({ dbId: 1, request, meta }, t.database, 'user');
    await t.drain();
    const failed = await t.entry();
    expect(failed.state).toBe('failed');
    expect(mergeOutcome(failed)).toEqual({ key: 'MERGE_FAILED', vars: { title: 'Invoice 11', reason: 'You do not have permission to merge documents of archive Invoices' } });
  });

  it('words an append by its inbox file', async () => {
    const t = setup(() => jsonResponse({ DocID: 11, ArchiveID: 1, PageCount: 5 }));
    const append: MergeRequest = { Type: 'Append', Documents: [{ InboxID: 1, Path: 'scan-001.pdf' }], BaseDocument: request.BaseDocument, Target: { Type: 'Archive', Id: 1, AppendType: 'Keep' } };
    await enqueueMerge({ dbId: 1, request: append, meta: { ...meta, type: 'Append', count: 2, removed: [], fileName: 'scan-001.pdf', title: 'Append scan-001.pdf to Invoice 11' } }, t.database, 'user');
    await t.drain();
    expect(mergeOutcome(await t.entry())).toEqual({ key: 'APPEND_SUCCESS', vars: { file: 'scan-001.pdf', id: 11, pages: 5 } });
  });

  it('refuses to queue what the server would refuse for its count', async () => {
    const t = setup(() => jsonResponse({}));
    await expect(enqueueMerge({ dbId: 1, request: { ...request, Documents: [] }, meta }, t.database, 'user')).rejects.toThrow();
    await expect(enqueueMerge({ dbId: 1, request: { ...request, Type: 'Append' }, meta }, t.database, 'user')).rejects.toThrow();
    expect(await t.database.outbox.count()).toBe(0);
  });
});

describe('the append history sentence', () => {
  it('an appended archive document has its own sentence (the inbox one would say "from inbox")', () => {
    expect(historyMessageParts({ Event: { Kind: 'document-appended', Count: 3 } })).toEqual([{ key: 'HISTORY_EVENT_DOCUMENT_APPENDED', vars: { count: 3 } }]);
    expect(historyMessageParts({ Event: { Kind: 'page-appended', Inbox: 'Scans', Count: 7 } })).toEqual([{ key: 'HISTORY_EVENT_PAGE_APPENDED', vars: { count: 7, inbox: 'Scans' } }]);
  });
});
