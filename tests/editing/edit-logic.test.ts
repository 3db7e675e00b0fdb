import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/db/db';
import {
  markNote,
  type NoteTranslator,
  NO_DIRTY, baseStampFor, buildFieldEdits, cellEditable, documentLabel, dropInvalid, evaluateInput, invalidEntries, markOf,
  newlyDone, overlayFor, overlayRows, rowEditable, setDirtyCell, showEditToggle, type EditDoc, type EditField,
} from '../../src/features/editing/edit-logic';

const F = {
  title: { ID: 1, Name: 'Title', Type: 1, Size: 100, Prop: 2 },
  number: { ID: 2, Name: 'Invoice Number', Type: 2, Size: 19 },
  date: { ID: 3, Name: 'Document Date', Type: 3, Mask: 'MM/dd/yyyy' },
  amount: { ID: 4, Name: 'Amount', Type: 4, Size: 18 },
  department: { ID: 5, Name: 'Department', Type: 1, Prop: 64, List: 1 },
  tags: { ID: 10, Name: 'Tags', Type: 1, Size: 30, Prop: 32, MultiValue: true },
  indexedBy: { ID: 12, Name: 'Indexed By', Type: 1, Prop: 8 },
  reference: { ID: 17, Name: 'Reference', Type: 1, Prop: 2048 },
  live: { ID: 30, Name: 'Live', Type: 1, ExtendedConfig: { LiveField: true } },
} satisfies Record<string, EditField>;
const fields: EditField[] = [F.title, F.number, F.date, F.amount, F.department, F.tags];
const byId = new Map(fields.map((f) => [f.ID, f]));

const doc = (id: number, extra: Partial<EditDoc> = {}): EditDoc => ({
  Id: id,
  Hash: `h${id}`,
  ArchiveId: 1,
  Permissions: 1 | 512 | 1024,
  Rev: 3,
  Fields: [
    { ID: 1, VAL: `Doc ${id}` },
    { ID: 2, VAL: '100' },
    { ID: 3, VAL: '2024-01-05' },
    { ID: 4, VAL: '12.5' },
    { ID: 5, VAL: 'Sales' },
    { ID: 10, VAL: 'a', MVAL: ['a', 'b'] },
  ],
  ...extra,
});

const full = { licenceType: 1, editAllowed: true };

function entry(e: Partial<OutboxEntry> & Pick<OutboxEntry, 'id' | 'state'>): OutboxEntry {
  return { kind: 'fieldData', method: 'PUT', path: '/x', target: '1|1|7', attempts: 0, createdAt: 0, updatedAt: 0, ...e };
}

describe('who may edit', () => {
  it('edit toggle: not for licence type 4, not without a row with 1024, not with live fields', () => {
    const docs = [doc(1), doc(2, { Permissions: 1 })];
    expect(showEditToggle(docs, full)).toBe(true);
    expect(showEditToggle(docs, { licenceType: 4, editAllowed: true })).toBe(false);
    expect(showEditToggle([doc(2, { Permissions: 1 | 512 })], full)).toBe(false);
    expect(showEditToggle(docs, { licenceType: 1, editAllowed: false })).toBe(false);
    expect(showEditToggle([], full)).toBe(false);
  });

  it('a cell: edit mode on, row 1024, no read-only Prop bit', () => {
    const d = doc(1);
    expect(cellEditable(false, d, F.title, full)).toBe(false);
    expect(cellEditable(true, d, F.title, full)).toBe(true);
    expect(cellEditable(true, d, F.department, full)).toBe(true);
    for (const prop of [4, 8, 16, 256, 512, 1024, 2048, 4096, 8192]) expect(cellEditable(true, d, { Prop: prop }, full), String(prop)).toBe(false);
    expect(cellEditable(true, d, F.indexedBy, full)).toBe(false);
    expect(cellEditable(true, d, F.reference, full)).toBe(false);
    expect(cellEditable(true, doc(2, { Permissions: 1 | 512 }), F.title, full)).toBe(false);
    expect(cellEditable(true, d, F.title, { licenceType: 4, editAllowed: true })).toBe(false);
    expect(rowEditable(doc(3, { Permissions: undefined }), full)).toBe(false);
  });
});

describe('judging what is typed', () => {
  it('numbers, decimals and dates in the locale; masks on valid values', () => {
    expect(evaluateInput(F.number, '-4711', 'en-US')).toEqual({ text: '-4711', display: '-4711', wire: { VAL: '-4711' } });
    const bad = evaluateInput(F.number, '12-3', 'en-US');
    expect(bad.wire).toBeNull();
    expect(bad.error?.key).toBe('FIELD_INVALID_NUMBER');
    // Letters in a number are kept as typed and flagged, never turned into an empty value.
    expect(evaluateInput(F.number, 'abc', 'de-DE')).toMatchObject({ text: 'abc', display: 'abc', wire: null, error: { key: 'FIELD_INVALID_NUMBER' } });
    expect(evaluateInput(F.amount, '1234,5', 'de-DE').wire).toEqual({ VAL: '1234.5' });
    expect(evaluateInput(F.amount, '1234,5', 'en-US').wire).toBeNull();
    const d = evaluateInput(F.date, '05.01.2024', 'de-DE');
    expect(d.wire).toEqual({ VAL: '2024-01-05' });
    expect(d.display).toBe('05.01.2024'); // the mask's parts in the locale's order
    expect(evaluateInput(F.date, '1/5/24', 'en-US').wire).toEqual({ VAL: '2024-01-05' });
    expect(evaluateInput(F.date, '31/31/2024', 'en-GB').error?.key).toBe('FIELD_INVALID_DATE');
    expect(evaluateInput(F.title, '', 'en-US').error?.key).toBe('FIELD_REQUIRED');
    expect(evaluateInput(F.title, 'x'.repeat(101), 'en-US').error?.key).toBe('FIELD_TOO_LONG');
  });

  it('fixed lists refuse a value outside their items when the items are known', () => {
    expect(evaluateInput(F.department, 'Nowhere', 'en-US', ['Sales', 'Finance']).error?.key).toBe('FIELD_NOT_IN_LIST');
    expect(evaluateInput(F.department, 'Finance', 'en-US', ['Sales', 'Finance']).wire).toEqual({ VAL: 'Finance' });
    expect(evaluateInput(F.department, '', 'en-US', ['Sales']).wire).toEqual({ VAL: '' });
    expect(evaluateInput(F.department, 'Nowhere', 'en-US', null).wire).toEqual({ VAL: 'Nowhere' });
  });

  it('multi-value: entries from "a; b" or an array, trailing empties dropped', () => {
    expect(evaluateInput(F.tags, 'x; y; ', 'en-US').wire).toEqual({ VAL: 'x', MVAL: ['x', 'y'] });
    expect(evaluateInput(F.tags, ['x', 'y', ''], 'en-US').wire).toEqual({ VAL: 'x', MVAL: ['x', 'y'] });
    expect(evaluateInput(F.tags, ['x'.repeat(31), ''], 'en-US').error?.key).toBe('FIELD_TOO_LONG');
  });

});

describe('the dirty-row store', () => {
  const set = (rows: typeof NO_DIRTY, d: EditDoc, f: EditField, input: string | string[], locale = 'en-US') =>
    setDirtyCell(rows, { doc: d, field: f, input, locale, archiveId: 1, title: documentLabel(d, fields) });

  it('a change makes the row dirty; going back to the original value cleans it', () => {
    const d = doc(7);
    let rows = set(NO_DIRTY, d, F.title, 'New');
    expect(rows.get(7)?.cells.get(1)).toMatchObject({ wire: { VAL: 'New' } });
    expect(rows.get(7)).toMatchObject({ hash: 'h7', rev: 3, title: 'Doc 7', archiveId: 1 });
    rows = set(rows, d, F.number, '100');
    expect(rows.get(7)?.cells.has(2)).toBe(false);
    rows = set(rows, d, F.title, 'Doc 7');
    expect(rows.size).toBe(0);
    // Equal by value, not by text: the same date typed differently, the same multi-values.
    expect(set(NO_DIRTY, d, F.date, '1/5/2024').size).toBe(0);
    expect(set(NO_DIRTY, d, F.tags, 'a; b').size).toBe(0);
    expect(set(NO_DIRTY, d, F.tags, 'a; b; c').get(7)?.cells.get(10)?.wire).toEqual({ VAL: 'a', MVAL: ['a', 'b', 'c'] });
  });

  it('invalid entries stay dirty, are listed, and can be dropped', () => {
    let rows = set(NO_DIRTY, doc(7), F.number, '12-3');
    rows = set(rows, doc(7), F.title, 'ok');
    rows = set(rows, doc(8), F.number, '1-');
    expect(invalidEntries(rows).map((e) => [e.docId, e.fieldId])).toEqual([[7, 2], [8, 2]]);
    const kept = dropInvalid(rows);
    expect([...kept.keys()]).toEqual([7]);
    expect([...kept.get(7)!.cells.keys()]).toEqual([1]);
    expect(invalidEntries(kept)).toEqual([]);
  });
});

describe('what Save enqueues', () => {
  const set = (rows: typeof NO_DIRTY, d: EditDoc, f: EditField, input: string) =>
    setDirtyCell(rows, { doc: d, field: f, input, locale: 'de-DE', archiveId: 1, title: documentLabel(d, fields) });

  it('one edit per dirty document, only the changed fields, wire values, labels and title', () => {
    let rows = set(NO_DIRTY, doc(7), F.title, 'Neu');
    rows = set(rows, doc(7), F.amount, '1.234,5');
    rows = set(rows, doc(8, { ArchiveId: 2, Rev: 9 }), F.date, '05.01.2025');
    const r = buildFieldEdits(rows, 1, byId, []);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.edits).toEqual([
      {
        dbId: 1,
        archiveId: 1,
        docId: 7,
        hash: 'h7',
        fields: [{ ID: 1, VAL: 'Neu' }, { ID: 4, VAL: '1234.5' }],
        baseStamp: 3,
        labels: { 1: 'Title', 4: 'Amount' },
        formats: { 1: { Type: 1, Mask: null, Currency: null }, 4: { Type: 4, Mask: null, Currency: null } },
        title: 'Doc 7',
      },
      {
        dbId: 1,
        archiveId: 2,
        docId: 8,
        hash: 'h8',
        fields: [{ ID: 3, VAL: '2025-01-05' }],
        baseStamp: 9,
        labels: { 3: 'Document Date' },
        formats: { 3: { Type: 3, Mask: 'MM/dd/yyyy', Currency: null } },
        title: 'Doc 8',
      },
    ]);
  });

  it('multi-value fields go with MVAL', () => {
    const rows = setDirtyCell(NO_DIRTY, { doc: doc(7), field: F.tags, input: ['a', 'c', ''], locale: 'en-US', archiveId: 1, title: 't' });
    const r = buildFieldEdits(rows, 1, byId, []);
    expect(r.ok && r.edits[0]!.fields).toEqual([{ ID: 10, VAL: 'a', MVAL: ['a', 'c'] }]);
  });

  it('nothing is enqueued while an entry is invalid', () => {
    let rows = set(NO_DIRTY, doc(7), F.title, 'Neu');
    rows = set(rows, doc(8), F.number, 'x1');
    const r = buildFieldEdits(rows, 1, byId, []);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.invalid.map((e) => e.docId)).toEqual([8]);
  });

  it('base stamp: the newest Rev the page knows (a done edit of the same document may be newer)', () => {
    const t = '1|1|7';
    expect(baseStampFor(3, [], t)).toBe(3);
    expect(baseStampFor(undefined, [], t)).toBeNull();
    const entries = [
      entry({ id: 'a', seq: 1, state: 'done', target: t, result: { Rev: 4 } }),
      entry({ id: 'b', seq: 2, state: 'done', target: t, result: { Rev: 6 } }),
      entry({ id: 'c', seq: 3, state: 'done', target: '1|1|8', result: { Rev: 50 } }),
      entry({ id: 'd', seq: 4, state: 'queued', target: t }),
      entry({ id: 'e', seq: 5, state: 'conflict', target: t, result: { Rev: 99 } }),
    ];
    expect(baseStampFor(3, entries, t)).toBe(6);
    expect(baseStampFor(8, entries, t)).toBe(8);
    expect(baseStampFor(null, entries, t)).toBe(6);
    const rows = set(NO_DIRTY, doc(7), F.title, 'Neu');
    const r = buildFieldEdits(rows, 1, byId, entries);
    expect(r.ok && r.edits[0]!.baseStamp).toBe(6);
  });
});

describe('what the grid shows', () => {
  it('overlay: unfinished entries, and done ones the page predates; newest wins', () => {
    const t = '1|1|7';
    const entries = [
      entry({ id: 'a', seq: 1, state: 'done', target: t, updatedAt: 100, body: [{ ID: 1, VAL: 'old done' }] }),
      entry({ id: 'b', seq: 2, state: 'queued', target: t, updatedAt: 50, body: [{ ID: 2, VAL: '5' }] }),
      entry({ id: 'c', seq: 3, state: 'failed', target: t, updatedAt: 60, error: 'no', body: [{ ID: 2, VAL: '6' }] }),
      entry({ id: 'd', seq: 4, state: 'queued', target: '1|1|8', body: [{ ID: 1, VAL: 'other' }] }),
    ];
    const before = overlayFor(entries, t, 90);
    expect(before.get(1)).toMatchObject({ VAL: 'old done', state: 'done' });
    expect(before.get(2)).toMatchObject({ VAL: '6', state: 'failed', error: 'no' });
    const after = overlayFor(entries, t, 200);
    expect(after.has(1)).toBe(false);
    expect(markOf(undefined, after.get(2))).toBe('failed');
    expect(markOf(undefined, before.get(1))).toBeNull();
    expect(markOf(undefined, { VAL: '', state: 'sending' })).toBe('pending');
    expect(markOf({ text: 'x', display: 'x', wire: null }, undefined)).toBe('invalid');
    expect(markOf({ text: 'x', display: 'x', wire: { VAL: 'x' } }, { VAL: '', state: 'queued' })).toBe('dirty');
  });

  it('overlayRows lays dirty over pending over the page; untouched rows keep identity', () => {
    const rows = [
      [false, 0, 'Doc 7', '100'],
      [false, 1, 'Doc 8', '100'],
    ];
    const docs = [doc(7), doc(8)];
    const cols = [undefined, undefined, 1, 2];
    expect(overlayRows(rows, docs, cols, NO_DIRTY, new Map())).toBe(rows);
    const dirty = setDirtyCell(NO_DIRTY, { doc: doc(7), field: F.title, input: 'Mine', locale: 'en-US', archiveId: 1, title: 't' });
    const pending = new Map([[7, new Map([[2, { VAL: '5', state: 'queued' as const }], [1, { VAL: 'pending', state: 'queued' as const }]])]]);
    const out = overlayRows(rows, docs, cols, dirty, pending);
    expect(out[0]).toEqual([false, 0, 'Mine', '5']);
    expect(out[1]).toBe(rows[1]);
  });

  it('newlyDone: done entries of this page not seen before', () => {
    const entries = [
      entry({ id: 'a', state: 'done', target: '1|1|7' }),
      entry({ id: 'b', state: 'done', target: '1|1|9' }),
      entry({ id: 'c', state: 'queued', target: '1|1|7' }),
      entry({ id: 'd', state: 'done', target: '1|1|7' }),
    ];
    expect(newlyDone(entries, new Set(['1|1|7']), new Set(['a']))).toEqual(['d']);
  });

  it('documentLabel: first non-empty character field, else file name, else #id', () => {
    expect(documentLabel(doc(7), fields)).toBe('Doc 7');
    expect(documentLabel(doc(7, { Fields: [], FileName: 'a.pdf' }), fields)).toBe('a.pdf');
    expect(documentLabel(doc(7, { Fields: [] }), fields)).toBe('#7');
  });
});

describe('markNote: a mark in words (grid cell and edit panel)', () => {
  const t: NoteTranslator = (key, o) => (o ? `${key}(${o.reason})` : key);
  it('names each outbox state and each kind of unsaved value', () => {
    expect(markNote(markOf(undefined, { VAL: 'x', state: 'queued' }), undefined, { VAL: 'x', state: 'queued' }, t)).toBe('EDIT_PENDING');
    expect(markNote('failed', undefined, { VAL: 'x', state: 'failed', error: 'No right' }, t)).toBe('EDIT_FAILED(No right)');
    expect(markNote('conflict', undefined, { VAL: 'x', state: 'conflict' }, t)).toBe('OUTBOX_STATE_CONFLICT');
    expect(markNote('dirty', { text: 'a', display: 'a', wire: { VAL: 'a' }, cleared: true }, undefined, t)).toBe('EDIT_LIST_VALUE_CLEARED');
    expect(markNote('dirty', { text: '9', display: '9', wire: { VAL: '9' }, clamped: true }, undefined, t)).toBe('EDIT_VALUE_CLAMPED');
    expect(markNote('invalid', { text: 'x', display: 'x', wire: null, error: { key: 'FIELD_INVALID_NUMBER' } }, undefined, t)).toBe('FIELD_INVALID_NUMBER');
    expect(markNote(markOf(undefined, { VAL: 'x', state: 'done' }), undefined, { VAL: 'x', state: 'done' }, t)).toBe('');
  });
});
