// @vitest-environment happy-dom
/**
 * The drain and its kinds load only once the outbox holds something to send (src/sync/react/
 * outbox-view.ts useOutboxTriggers): a start with an empty outbox, the first screen of most visits,
 * does not fetch them.
 */
import 'fake-indexeddb/auto';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/db/db';
import { useOutboxTriggers } from '../../src/sync/react/outbox-view';

const started = vi.hoisted(() => ({ count: 0, stopped: 0 }));
vi.mock('../../src/sync/triggers', () => ({
  startOutboxTriggers: () => {
    started.count++;
    return () => void started.stopped++;
  },
}));

beforeEach(async () => {
  started.count = 0;
  started.stopped = 0;
  await db.outbox.clear();
});
afterEach(() => cleanup());

const entry = (state: 'queued' | 'done' | 'failed') => ({
  id: crypto.randomUUID(),
  kind: 'field-edit',
  target: 'doc:1:1:5',
  state,
  attempts: 0,
  createdAt: 1,
  updatedAt: 1,
  request: { method: 'PUT', path: '/api/x' },
}) as never;

describe('the outbox triggers', () => {
  it('are not loaded while nothing waits to be sent, and start when an entry is queued', async () => {
    await db.outbox.add(entry('done'));
    await db.outbox.add(entry('failed'));
    const hook = renderHook(() => useOutboxTriggers());
    await new Promise((r) => setTimeout(r, 300));
    expect(started.count).toBe(0);
    await db.outbox.add(entry('queued'));
    await waitFor(() => expect(started.count).toBe(1));
    hook.unmount();
    expect(started.stopped).toBe(1);
  });

  it('start at once for an entry left from before', async () => {
    await db.outbox.add(entry('queued'));
    renderHook(() => useOutboxTriggers());
    await waitFor(() => expect(started.count).toBe(1));
  });
});
