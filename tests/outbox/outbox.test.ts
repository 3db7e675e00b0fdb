import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { keepMine, pendingValuesFor } from '../../src/sync/kinds/field-data';
import { attentionCount, clearDone, discardEntry, retryEntry, takeTheirs } from '../../src/sync/outbox';
import { jsonResponse, setup } from './outbox-helpers';

const conflictBody = { Message: 'changed', Key: 'CONFLICT', Current: { Rev: 9, Fields: [{ ID: 19, VAL: 'theirs' }] }, Conflicts: [19] };

describe('pending values for the grid', () => {
  it('overlays the newest unconfirmed value per field, done entries left out', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }, { ID: 10, VAL: 'x', MVAL: ['x', 'y'] }]);
    await t.drain();
    await t.edit(1, [{ ID: 19, VAL: 'b' }]);
    await t.edit(1, [{ ID: 19, VAL: 'c' }]);
    await t.edit(2, [{ ID: 19, VAL: 'other doc' }]);
    const p = await pendingValuesFor('1|2|1', t.database);
    expect([...p.keys()]).toEqual([19]);
    expect(p.get(19)).toMatchObject({ VAL: 'c', state: 'queued' });
  });
});

describe('the user decisions', () => {
  it('retry sends a failed entry again; discard removes only failed or conflict entries', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(2, [{ ID: 19, VAL: 'b' }]);
    t.setAnswer(() => jsonResponse({ Message: 'No permission' }, { status: 403 }));
    await t.drain();
    const [failed, other] = await t.entries();
    expect(failed!.state).toBe('failed');
    expect(other!.state).toBe('failed');
    expect(await discardEntry(failed!.seq!, t.database)).toBe(true);
    t.setAnswer(() => jsonResponse({ Rev: 2, Fields: [] }));
    await retryEntry(other!.seq!, t.database);
    await t.drain();
    const left = await t.entries();
    expect(left.map((e) => e.state)).toEqual(['done']);
    expect(await discardEntry(left[0]!.seq!, t.database)).toBe(false);
    expect(await clearDone(t.database)).toBe(1);
    expect(await t.entries()).toHaveLength(0);
  });

  it("keep mine: the same edit on the server's Rev with a new key, at the same place in the order", async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'mine' }], 3);
    await t.edit(1, [{ ID: 1, VAL: 'next' }], 3);
    t.setAnswer(() => jsonResponse(conflictBody, { status: 409 }));
    await t.drain();
    const [c] = await t.entries();
    expect(attentionCount(await t.entries())).toBe(2);
    expect(await keepMine(c!.seq!, t.database)).toBe(true);
    const [kept] = await t.entries();
    expect(kept).toMatchObject({ seq: c!.seq, state: 'queued', attempts: 0 });
    expect(kept!.id).not.toBe(c!.id);
    expect(kept!.headers?.['If-Match']).toBe('"9"');
    t.setAnswer(() => jsonResponse({ Rev: 10, Fields: [] }));
    await t.drain();
    expect(t.sent.slice(1).map((s) => (s.body as { VAL: string }[])[0]!.VAL)).toEqual(['mine', 'next']);
    expect(t.sent[1]!.headers['Idempotency-Key']).toBe(kept!.id);
  });

  it('take theirs drops the edit and lets the later ones go', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'mine' }], 3);
    t.setAnswer(() => jsonResponse(conflictBody, { status: 409 }));
    await t.drain();
    const [c] = await t.entries();
    expect(await takeTheirs(c!.seq!, t.database)).toBe(true);
    expect(await t.entries()).toHaveLength(0);
  });

  it('the badge counts unsent, failed and conflicting entries', async () => {
    const t = setup();
    await t.edit(1, [{ ID: 19, VAL: 'a' }]);
    await t.edit(2, [{ ID: 19, VAL: 'b' }]);
    expect(attentionCount(await t.entries())).toBe(2);
    await t.drain();
    expect(attentionCount(await t.entries())).toBe(0);
  });
});
