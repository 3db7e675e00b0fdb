import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/db';
import { applyUpdate, getUpdateState, installOutcome, installWithRetry } from '../../src/pwa/register';

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

/** A worker whose state the test moves on, as the browser would. */
class FakeWorker extends EventTarget {
  constructor(public state: ServiceWorkerState) {
    super();
  }
  moveTo(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}
const registrationWith = (w: Partial<Record<'installing' | 'waiting' | 'active', FakeWorker | null>>) =>
  ({ installing: null, waiting: null, active: null, ...w }) as unknown as ServiceWorkerRegistration;

describe('installing the service worker', () => {
  // vi.waitFor would move fake timers on; this only lets the pending promises run.
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('is done when the registration has an active worker', async () => {
    await expect(installOutcome(registrationWith({ active: new FakeWorker('activated') }))).resolves.toBe('active');
  });

  it('follows the installing worker to active, or to redundant as a failure', async () => {
    const ok = new FakeWorker('installing');
    const first = installOutcome(registrationWith({ installing: ok }));
    ok.moveTo('installed');
    ok.moveTo('activating');
    await expect(first).resolves.toBe('active');

    const broken = new FakeWorker('installing');
    const reg = registrationWith({ installing: broken });
    const second = installOutcome(reg);
    (reg as unknown as { installing: null }).installing = null;
    broken.moveTo('redundant');
    await expect(second).resolves.toBe('failed');
  });

  it('tries again after a failed install, and at once when the device comes back online, until one is active', async () => {
    vi.useFakeTimers();
    try {
      const workers: FakeWorker[] = [];
      let online: (() => void) | undefined;
      const failures: unknown[] = [];
      const register = vi.fn(async () => {
        const w = new FakeWorker('installing');
        workers.push(w);
        return registrationWith({ installing: w });
      });
      installWithRetry({ register, onOnline: (fn) => ((online = fn), () => (online = undefined)), onFailure: (e) => failures.push(e), delays: [1_000, 5_000] });
      await settle();
      expect(register).toHaveBeenCalledTimes(1);
      workers[0]!.moveTo('redundant'); // one precache fetch failed
      await settle();
      expect(failures).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(register).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(register).toHaveBeenCalledTimes(2);
      workers[1]!.moveTo('redundant');
      await settle();
      expect(failures).toHaveLength(2);
      // Back online before the 5 s wait is over: tried at once, and not again when the wait ends.
      online!();
      await settle();
      expect(register).toHaveBeenCalledTimes(3);
      workers[2]!.moveTo('activated');
      await settle();
      expect(online).toBeUndefined();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(register).toHaveBeenCalledTimes(3);
      expect(failures).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tries again when registering itself fails (offline at the first visit)', async () => {
    vi.useFakeTimers();
    try {
      const register = vi
        .fn<() => Promise<ServiceWorkerRegistration>>()
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockResolvedValue(registrationWith({ active: new FakeWorker('activated') }));
      installWithRetry({ register, onOnline: () => () => undefined, delays: [2_000] });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(register).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(register).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
