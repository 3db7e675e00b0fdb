import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ArchiveDb, type JobRecord } from '../../src/db/db';
import { blockedReason, destinations, emailBlockedReason } from '../../src/features/documents/document-rules';
import { changeOfJob } from '../../src/features/documents/use-job-refresh';
import { enqueueDocumentOperation } from '../../src/sync/kinds/document-operation';

const FULL = 1 | 2 | 8 | 131072;

describe('who may copy, move, delete', () => {
  it('the read-only licence (type 4) blocks all three, whatever the bits', () => {
    for (const op of ['Copy', 'Move', 'delete'] as const) expect(blockedReason(op, 4, FULL)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
  });
  it('delete needs bit 8, move bit 131072; copy only view', () => {
    expect(blockedReason('delete', 1, FULL & ~8)).toBe('DOCUMENTS_NO_DELETE_RIGHT');
    expect(blockedReason('Move', 1, FULL & ~131072)).toBe('DOCUMENTS_NO_MOVE_RIGHT');
    expect(blockedReason('Copy', 1, 1)).toBeNull();
    expect(blockedReason('Move', 1, FULL)).toBeNull();
    expect(blockedReason('delete', 1, null)).toBeNull();
  });
  it('e-mail needs bit 32 and a licence that is not read-only; unknown bits block nothing', () => {
    expect(emailBlockedReason(4, 1 | 32)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
    expect(emailBlockedReason(1, FULL)).toBe('DOCUMENTS_NO_EMAIL_RIGHT');
    expect(emailBlockedReason(1, 1 | 32)).toBeNull();
    expect(emailBlockedReason(1, null)).toBeNull();
  });
});

describe('archive select modal choices', () => {
  const archives = [
    { Id: 1, Name: 'Invoices', Permissions: FULL },
    { Id: 3, Name: 'Contracts', Permissions: FULL, Props: 1 | 4 },
    { Id: 4, Name: 'Contract Versions', Permissions: FULL, Props: 16 },
    { Id: 5, Name: 'Correspondence', Permissions: 1 },
    { ID: 6, Name: 'Incoming', Permissions: 1 | 2 },
  ];
  it('archives with add (2), not the source, never a versions archive', () => {
    expect(destinations(archives, 1)).toEqual([{ id: 3, name: 'Contracts' }, { id: 6, name: 'Incoming' }]);
    expect(destinations(archives, 6).map((d) => d.name)).toEqual(['Invoices', 'Contracts']);
  });
});

describe('what an ended job changed', () => {
  const job = (over: Partial<JobRecord>): JobRecord => ({ id: '5', dbId: 1, kind: 'move', state: 'done', progress: 3, total: 3, startedAt: 0, updatedAt: 0, nextPollAt: 0, notes: [], archiveId: 7, destinationArchiveId: 6, ...over });
  it('a move: both archives changed; its documents left the source except the failed ones', async () => {
    const database = new ArchiveDb(`rules-${Math.random()}`);
    const entryId = await enqueueDocumentOperation({ op: 'Move', dbId: 1, archiveId: 7, destinationArchive: 6, docs: [1, 2, 3].map((id) => ({ id, hash: `h${id}` })), title: 'Move' }, database, 'user');
    const c = await changeOfJob(job({ entryId, failures: ['DocID 2: You do not have permission'] }), database);
    expect(c).toEqual({ kind: 'move', archiveIds: [7, 6], gone: [{ archiveId: 7, id: 1 }, { archiveId: 7, id: 3 }] });
  });
  it("a document of a sub-archive leaves its own archive, whose pages are refreshed too", async () => {
    const database = new ArchiveDb(`rules-${Math.random()}`);
    const entryId = await enqueueDocumentOperation({ op: 'delete', dbId: 1, archiveId: 5, docs: [{ id: 1, hash: 'a' }, { id: 2, hash: 'b', archiveId: 6 }], title: 'Delete' }, database, 'user');
    const c = await changeOfJob(job({ kind: 'delete', entryId, archiveId: 5, destinationArchiveId: undefined }), database);
    expect(c).toEqual({ kind: 'delete', archiveIds: [5, 6], gone: [{ archiveId: 5, id: 1 }, { archiveId: 6, id: 2 }] });
  });
  it('a copy: nothing leaves', async () => {
    const database = new ArchiveDb(`rules-${Math.random()}`);
    const entryId = await enqueueDocumentOperation({ op: 'Copy', dbId: 1, archiveId: 7, destinationArchive: 6, docs: [{ id: 1, hash: 'h' }], title: 'Copy' }, database, 'user');
    expect((await changeOfJob(job({ kind: 'copy', entryId }), database)).gone).toEqual([]);
  });
});
