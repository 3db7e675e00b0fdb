import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/db';
import { applyUpdate, getUpdateState } from '../../src/pwa/register';

describe('applying a waiting update', () => {
  it('waits while the outbox holds unsent work, then goes ahead by itself once it is empty', async () => {
    const target = { addEventListener: vi.fn(), messageSkipWaiting: vi.fn() };
    const now = Date.now();
    const seq = await db.outbox.add({
      id: 'k1', kind: 'fieldData', method: 'PUT', path: '/api/x', target: 'doc-1', state: 'queued', attempts: 0, createdAt: now, updatedAt: now,
    });

    expect(await applyUpdate(target as never)).toBe(false);
    expect(getUpdateState().blockedByOutbox).toBe(true);
    expect(target.messageSkipWaiting).not.toHaveBeenCalled();

    await db.outbox.update(seq, { state: 'done' });
    await vi.waitFor(() => expect(target.messageSkipWaiting).toHaveBeenCalledTimes(1));
    expect(getUpdateState().blockedByOutbox).toBe(false);
    expect(target.addEventListener).toHaveBeenCalledWith('controlling', expect.any(Function));
  });

  it('goes ahead at once with nothing unsent', async () => {
    const target = { addEventListener: vi.fn(), messageSkipWaiting: vi.fn() };
    expect(await applyUpdate(target as never)).toBe(true);
    expect(target.messageSkipWaiting).toHaveBeenCalledTimes(1);
  });
});
