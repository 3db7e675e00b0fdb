/**
 * Documents kept offline (src/sync/pins.ts) on fake-indexeddb with a fake server: a PDF is kept as
 * its file and thumbnails, a TIFF as its page images and thumbnails; a fetch cut by a lost
 * connection goes on from the next part; a new pages Version fetches every part again and swaps them
 * at the end; refusals and a full device end as failed with their reason; unpinning removes every
 * blob; the reads the viewer and the indexer panel use; the loop's choice of the next pin.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import type { ViewerDocumentInfo } from '../../src/api/viewer';
import Dexie from 'dexie';
import { ArchiveDb, type PinRecord } from '../../src/db/db';
import { resetSessionForTests, setSession } from '../../src/session/session';
import {
  PIN_KEYS, PIN_PAGE_WIDTH, PIN_THUMB_SIZE, getPinnedFile, getPinnedPageImage, getPinnedThumb, getPinnedWords, localViewerSession, nextPin, partsOf,
  dropOtherUsersPins, pinDocuments, pinKey, putPinnedWords, updatePinnedAnnotations, updatePinnedIndex, readPinnedDocument, refreshPin, retryPin, unpinDocuments, updatePinnedRows, workPin, type PinApi,
} from '../../src/sync/pins';

const network = () => new ApiError({ kind: 'network', method: 'GET', url: '/x' });
const http = (status: number) => new ApiError({ kind: 'http', method: 'GET', url: '/x', status, serverMessage: `status ${status}` });

class FakeServer implements PinApi {
  docs = new Map<number, ViewerDocumentInfo>();
  calls: string[] = [];
  /** Throws for the call-th part fetch (0-based) from when it is set, once. */
  private failing: { call: number; error: unknown } | null = null;
  private n = 0;
  set failAt(f: { call: number; error: unknown }) {
    this.failing = f;
    this.n = 0;
  }
  private hit(what: string) {
    this.calls.push(what);
    if (this.failing && this.failing.call === this.n++) {
      const e = this.failing.error;
      this.failing = null;
      throw e;
    }
  }
  async info(p: PinRecord) {
    const d = this.docs.get(p.docId);
    if (!d) throw http(404);
    return d;
  }
  async archiveFields() {
    return [{ ID: 1, Name: 'Title', Type: 1 }];
  }
  async index(p: PinRecord) {
    return { Count: 1, Docs: [{ Id: p.docId, Hash: p.hash, Rev: 1, Fields: [{ ID: 1, VAL: 'from server' }] }], Fields: [{ ID: 1 }], Terms: [], Permissions: 3 };
  }
  async annotations(p: PinRecord) {
    return { Permissions: 1 | 2048, Annotations: [{ Id: `n${p.docId}`, Kind: 'note', Page: 1, Text: 'Checked' }] };
  }
  async file(p: PinRecord) {
    this.hit(`file ${p.docId}`);
    return new Blob([`%PDF ${p.docId} ${this.docs.get(p.docId)?.Version}`], { type: 'application/pdf' });
  }
  async pageImage(p: PinRecord, page: number, width: number, height?: number) {
    this.hit(`image ${p.docId} ${page} ${width}${height ? `x${height}` : ''}`);
    return new Blob([`png ${p.docId} ${page} ${width} ${this.docs.get(p.docId)?.Version}`], { type: 'image/png' });
  }
  /** The device's OCR engine cached: how often asked; throws `ocrError` once when set. */
  ocrAsked = 0;
  ocrError: unknown = null;
  async deviceOcr() {
    this.ocrAsked++;
    const e = this.ocrError;
    this.ocrError = null;
    if (e) throw e;
  }
}

const text = (b: Blob | null) => (b ? b.text() : Promise.resolve(null));

describe('documents kept offline', () => {
  let database: ArchiveDb;
  let server: FakeServer;
  const pdf = { db: 1, archiveId: 2, docId: 10, hash: 'h10', fileName: 'a.pdf', row: { Id: 10, Rev: 3, Fields: [{ ID: 1, VAL: 'x' }] }, fields: [{ ID: 1, Type: 1 }] };
  const tif = { db: 1, archiveId: 2, docId: 11, hash: 'h11', fileName: 'b.tif' };
  beforeEach(async () => {
    resetSessionForTests();
    await setSession({ token: 't', licenceType: 1, userName: 'user' });
    database = new ArchiveDb(`pins-${Math.random()}`);
    await database.open();
    server = new FakeServer();
    server.docs.set(10, { Archive: 2, Id: 10, Hash: 'h10', Available: true, FileName: 'a.pdf', FileType: 'PDF', Pages: 2, Version: 'v1' });
    server.docs.set(11, { Archive: 2, Id: 11, Hash: 'h11', Available: true, FileName: 'b.tif', FileType: 'TIFF', Pages: 3, Version: 'v1' });
  });
  afterEach(() => database.delete());

  it('keeps a PDF as its file and thumbnails, a TIFF as its page images and thumbnails', async () => {
    const [a, b] = await pinDocuments([pdf, tif], { database, owner: 'user', now: 1 });
    expect(a).toBe('user|1|2|10');
    expect(await workPin(database, a!, server)).toEqual({ outcome: 'done' });
    expect(await workPin(database, b!, server)).toEqual({ outcome: 'done' });
    expect(server.calls).toEqual([
      'file 10', `image 10 1 ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`, `image 10 2 ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`,
      `image 11 1 ${PIN_PAGE_WIDTH}`, `image 11 2 ${PIN_PAGE_WIDTH}`, `image 11 3 ${PIN_PAGE_WIDTH}`,
      `image 11 1 ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`, `image 11 2 ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`, `image 11 3 ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`,
    ]);
    const p = (await database.pins.get(a!))!;
    expect(p).toMatchObject({ state: 'done', fileType: 'PDF', pages: 2, version: 'v1', done: 3, total: 3, words: 'device', archiveFields: [{ ID: 1, Name: 'Title', Type: 1 }] });
    // The user's rights on the archive and the document's annotations, so notes and stamps are offered offline.
    expect(p.annotations).toEqual({ Permissions: 1 | 2048, Annotations: [{ Id: 'n10', Kind: 'note', Page: 1, Text: 'Checked' }] });
    await updatePinnedAnnotations({ db: 1, archiveId: 2, docId: 10 }, { Permissions: 1, Annotations: [] }, database);
    expect((await database.pins.get(a!))!.annotations).toEqual({ Permissions: 1, Annotations: [] });
    // The indexer panel's data of the document, as the server gave it at pin time, and newer when read online.
    expect(p.index).toMatchObject({ Count: 1, Docs: [{ Id: 10, Fields: [{ ID: 1, VAL: 'from server' }] }] });
    await updatePinnedIndex({ db: 1, archiveId: 2, docId: 10 }, { Count: 1, Docs: [{ Id: 10, Rev: 2 }] }, database);
    await updatePinnedIndex({ db: 1, archiveId: 2, docId: 77 }, { Count: 1 }, database);
    expect((await database.pins.get(a!))!.index).toEqual({ Count: 1, Docs: [{ Id: 10, Rev: 2 }] });
    expect(await database.pins.count()).toBe(2);
    expect(p.bytes).toBe((await database.pinParts.where('pin').equals(a!).toArray()).reduce((s, x) => s + x.bytes, 0));
    const ref = { db: 1, archiveId: 2, docId: 10 };
    expect(await text(await getPinnedFile(ref, database))).toBe('%PDF 10 v1');
    expect(await text(await getPinnedThumb(ref, 2, database))).toBe(`png 10 2 ${PIN_THUMB_SIZE} v1`);
    expect(await getPinnedPageImage(ref, 1, database)).toBeNull();
    expect(await text(await getPinnedPageImage({ db: 1, archiveId: 2, docId: 11 }, 3, database))).toBe(`png 11 3 ${PIN_PAGE_WIDTH} v1`);
    expect((await getPinnedFile({ db: 1, archiveId: 2, docId: 11 }, database))).toBeNull();
  });

  it('goes on from the next part after a lost connection, fetching no part twice', async () => {
    const [b] = await pinDocuments([tif], { database, owner: 'user' });
    server.failAt = { call: 2, error: network() };
    let t = 1000;
    expect(await workPin(database, b!, server, () => t)).toEqual({ outcome: 'waiting' });
    const waiting = (await database.pins.get(b!))!;
    expect(waiting).toMatchObject({ state: 'waiting', done: 2, total: 6, reason: { key: PIN_KEYS.offline } });
    expect(waiting.nextAttemptAt).toBeGreaterThan(t);
    // The loop's choice: not before it is due, then this one.
    expect(nextPin([waiting], 'user', t)).toEqual({ at: waiting.nextAttemptAt });
    t = waiting.nextAttemptAt!;
    expect(nextPin([waiting], 'user', t)).toEqual({ key: b });
    expect(nextPin([waiting], 'someone else', t)).toEqual({});
    server.calls = [];
    expect(await workPin(database, b!, server, () => t)).toEqual({ outcome: 'done' });
    expect(server.calls).toEqual([`image 11 3 ${PIN_PAGE_WIDTH}`, ...[1, 2, 3].map((n) => `image 11 ${n} ${PIN_THUMB_SIZE}x${PIN_THUMB_SIZE}`)]);
    expect(await database.pinParts.where('pin').equals(b!).count()).toBe(6);
  });

  it('fetches every part again when the server has a new pages Version, keeping the old until the new are in', async () => {
    const [a] = await pinDocuments([pdf], { database, owner: 'user' });
    await workPin(database, a!, server);
    const ref = { db: 1, archiveId: 2, docId: 10 };
    expect(await refreshPin(a!, 'v1', database)).toBe(false);
    server.docs.set(10, { ...server.docs.get(10)!, Pages: 1, Version: 'v2' });
    expect(await refreshPin(a!, 'v2', database)).toBe(true);
    server.failAt = { call: 1, error: network() }; // the new file came, the thumbnail did not
    expect(await workPin(database, a!, server)).toEqual({ outcome: 'waiting' });
    expect(await text(await getPinnedFile(ref, database))).toBe('%PDF 10 v1');
    await retryPin(a!, database);
    expect(await workPin(database, a!, server)).toEqual({ outcome: 'done' });
    expect(await text(await getPinnedFile(ref, database))).toBe('%PDF 10 v2');
    expect(await getPinnedThumb(ref, 2, database)).toBeNull();
    expect(await database.pins.get(a!)).toMatchObject({ state: 'done', version: 'v2', pages: 1, done: 2, total: 2 });
  });

  it('ends refused, gone and full-device pins as failed with their reason, and tries a failed one again when pinned again', async () => {
    const [a, b] = await pinDocuments([pdf, tif], { database, owner: 'user' });
    server.failAt = { call: 0, error: http(403) };
    expect(await workPin(database, a!, server)).toEqual({ outcome: 'failed' });
    expect((await database.pins.get(a!))!.reason).toEqual({ key: PIN_KEYS.forbidden, message: 'status 403' });
    server.docs.set(11, { ...server.docs.get(11)!, Available: false });
    expect(await workPin(database, b!, server)).toEqual({ outcome: 'failed' });
    expect((await database.pins.get(b!))!.reason).toEqual({ key: PIN_KEYS.missing });

    server.docs.set(11, { ...server.docs.get(11)!, Available: true });
    await pinDocuments([tif], { database, owner: 'user' });
    expect((await database.pins.get(b!))!.state).toBe('queued');
    server.failAt = { call: 1, error: new DOMException('The quota has been exceeded.', 'QuotaExceededError') };
    expect(await workPin(database, b!, server)).toEqual({ outcome: 'failed' });
    expect((await database.pins.get(b!))!.reason).toEqual({ key: PIN_KEYS.quota });
    // The part stored before the device was full stays until the pin is removed.
    expect(await database.pinParts.where('pin').equals(b!).count()).toBe(1);
  });

  it('stops for a session error with the pin still queued', async () => {
    const [a] = await pinDocuments([pdf], { database, owner: 'user' });
    const expired = new ApiError({ kind: 'http', method: 'GET', url: '/x', status: 402 });
    server.failAt = { call: 0, error: expired };
    expect(await workPin(database, a!, server)).toEqual({ outcome: 'session', error: expired });
    expect((await database.pins.get(a!))!.state).toBe('queued');
  });

  it('removes every stored part when unpinned, also while it is being fetched', async () => {
    const [a, b] = await pinDocuments([pdf, tif], { database, owner: 'user' });
    await workPin(database, a!, server);
    const slow: PinApi = {
      ...server,
      info: (p) => server.info(p),
      archiveFields: () => server.archiveFields(),
      file: (p) => server.file(p),
      pageImage: async (p, page, w, h) => {
        if (page === 2) await unpinDocuments([b!], database);
        return server.pageImage(p, page, w, h);
      },
    };
    expect(await workPin(database, b!, slow)).toEqual({ outcome: 'gone' });
    await unpinDocuments([a!], database);
    expect(await database.pins.count()).toBe(0);
    expect(await database.pinParts.count()).toBe(0);
  });

  it('gives the viewer a session of the kept document and the panel its row, the latest the grid saw', async () => {
    const [a] = await pinDocuments([pdf], { database });
    await workPin(database, a!, server);
    const p = (await readPinnedDocument(1, 2, 10, database))!;
    expect(p.row).toEqual(pdf.row);
    expect(localViewerSession(p)).toEqual({
      Id: 'pinned:1|2|10', Database: 1, SearchId: null, SearchCriteria: null,
      // Named by its row's first character field, as the grid named it.
      Documents: [{ Archive: 2, Id: 10, Hash: 'h10', Available: true, FileName: 'a.pdf', Title: 'x', FileType: 'PDF', Pages: 2, Version: 'v1' }],
    });
    const newer = { Id: 10, Rev: 4, Fields: [{ ID: 1, VAL: 'y' }] };
    await updatePinnedRows([{ ref: { db: 1, archiveId: 2, docId: 10 }, row: newer }, { ref: { db: 1, archiveId: 2, docId: 99 }, row: {} }], database);
    expect((await readPinnedDocument(1, 2, 10, database))!.row).toEqual(newer);
    expect(await readPinnedDocument(1, 2, 99, database)).toBeUndefined();
    // Words the device recognised are kept with the document, and go with it.
    await putPinnedWords({ db: 1, archiveId: 2, docId: 10 }, 1, [{ Value: 'Invoice' }], database);
    expect(await getPinnedWords({ db: 1, archiveId: 2, docId: 10 }, 1, database)).toEqual([{ Value: 'Invoice' }]);
    await unpinDocuments([pinKey('user', { db: 1, archiveId: 2, docId: 10 })], database);
    expect(await getPinnedWords({ db: 1, archiveId: 2, docId: 10 }, 1, database)).toBeNull();
  });

  it("keeps the server's words of each page, or leaves them to the device when the server has no OCR", async () => {
    const [b] = await pinDocuments([tif], { database, owner: 'user' });
    const withWords: PinApi = Object.assign(Object.create(server) as FakeServer, {
      words: async (_p: PinRecord, page: number) => (page === 2 ? { Page: 2, ImageWidth: 10, ImageHeight: 10, Words: [{ Value: 'Total' }] } : { Page: page, ImageWidth: 10, ImageHeight: 10, Words: [] }),
    });
    expect(await workPin(database, b!, withWords)).toEqual({ outcome: 'done' });
    const ref = { db: 1, archiveId: 2, docId: 11 };
    expect(await getPinnedWords(ref, 2, database)).toMatchObject({ Words: [{ Value: 'Total' }] });
    expect(await database.pins.get(b!)).toMatchObject({ words: 'server', done: 9, total: 9 });

    const [a] = await pinDocuments([pdf], { database, owner: 'user' });
    let asked = 0;
    const noOcr: PinApi = Object.assign(Object.create(server) as FakeServer, { words: async () => (asked++, null) });
    expect(await workPin(database, a!, noOcr)).toEqual({ outcome: 'done' });
    expect(asked).toBe(1);
    expect(await database.pins.get(a!)).toMatchObject({ words: 'device', done: 5, total: 5 });
    expect(await getPinnedWords({ db: 1, archiveId: 2, docId: 10 }, 1, database)).toBeNull();
    // The server's words need no OCR engine on the device; the device's do (asked once, for the PDF).
    expect((withWords as FakeServer).ocrAsked).toBe(0);
    expect((noOcr as FakeServer).ocrAsked).toBe(1);
  });

  it("is kept only once the device's OCR engine is: a lost connection while caching it waits and tries again", async () => {
    const [a] = await pinDocuments([pdf], { database, owner: 'user' });
    server.ocrError = network();
    let t = 1000;
    expect(await workPin(database, a!, server, () => t)).toEqual({ outcome: 'waiting' });
    const waiting = (await database.pins.get(a!))!;
    expect(waiting).toMatchObject({ state: 'waiting', done: 3, total: 3, reason: { key: PIN_KEYS.offline } });
    expect(waiting.fetchedAt).toBeUndefined();
    t = waiting.nextAttemptAt!;
    server.calls = [];
    expect(await workPin(database, a!, server, () => t)).toEqual({ outcome: 'done' });
    // No part fetched twice; the engine asked again.
    expect(server.calls).toEqual([]);
    expect(server.ocrAsked).toBe(2);
    expect(await database.pins.get(a!)).toMatchObject({ state: 'done', words: 'device' });
  });

  it("keeps each user's copy of a document apart, and a sign-in drops the other users'", async () => {
    const [mine] = await pinDocuments([pdf], { database, owner: 'user' });
    await workPin(database, mine!, server);
    // Another user on the same device keeps the same document: a record and parts of their own.
    await setSession({ token: 't2', licenceType: 1, userName: 'clerk' });
    expect(await readPinnedDocument(1, 2, 10, database)).toBeUndefined();
    expect(await getPinnedFile({ db: 1, archiveId: 2, docId: 10 }, database)).toBeNull();
    const [theirs] = await pinDocuments([pdf], { database });
    expect(theirs).toBe('clerk|1|2|10');
    await workPin(database, theirs!, server);
    expect((await database.pins.get(mine!))?.owner).toBe('user');
    expect(await database.pinParts.where('pin').equals(mine!).count()).toBe(3);
    // clerk's sign-in drops what user kept, every part with it; clerk's own stay.
    expect(await dropOtherUsersPins('clerk', database)).toBe(1);
    expect(await database.pins.toCollection().primaryKeys()).toEqual([theirs]);
    expect(await database.pinParts.where('pin').equals(mine!).count()).toBe(0);
    expect(await text(await getPinnedFile({ db: 1, archiveId: 2, docId: 10 }, database))).toBe('%PDF 10 v1');
  });

  it('moves documents kept before this version to keys of their user, with their parts', async () => {
    const name = `pins-upgrade-${Math.random()}`;
    const old = new Dexie(name);
    old.version(4).stores({ pins: 'key, state, owner, createdAt', pinParts: 'key, pin' });
    const base = { db: 1, archiveId: 2, hash: 'h', state: 'done', done: 1, total: 1, bytes: 3, createdAt: 1, updatedAt: 1 };
    await old.table('pins').bulkPut([{ ...base, key: '1|2|10', docId: 10, owner: 'user' }, { ...base, key: '1|2|11', docId: 11 }]);
    await old.table('pinParts').bulkPut([
      { key: '1|2|10|file', pin: '1|2|10', kind: 'file', page: 0, blob: new Blob(['%PDF']), bytes: 4 },
      { key: '1|2|11|page|1', pin: '1|2|11', kind: 'page', page: 1, blob: new Blob(['png']), bytes: 3 },
    ]);
    old.close();
    const upgraded = new ArchiveDb(name);
    try {
      expect((await upgraded.pins.toArray()).map((p) => [p.key, p.owner, p.docId])).toEqual([['user|1|2|10', 'user', 10], ['|1|2|11', undefined, 11]]);
      expect((await upgraded.pinParts.toArray()).map((p) => [p.key, p.pin])).toEqual([['user|1|2|10|file', 'user|1|2|10'], ['|1|2|11|page|1', '|1|2|11']]);
      expect(await text(await getPinnedFile({ db: 1, archiveId: 2, docId: 10 }, upgraded))).toBe('%PDF');
    } finally {
      upgraded.close();
      await upgraded.delete();
    }
  });

  it('lists the parts a document is kept as', () => {
    expect(partsOf({ fileType: 'pdf', pages: 2 }, false)).toEqual([{ kind: 'file', page: 0 }, { kind: 'thumb', page: 1 }, { kind: 'thumb', page: 2 }]);
    expect(partsOf({ fileType: 'TIFF', pages: 1 }, true)).toEqual([{ kind: 'page', page: 1 }, { kind: 'thumb', page: 1 }, { kind: 'words', page: 1 }]);
  });
});
