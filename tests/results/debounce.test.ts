import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer } from '../../src/features/results/debounce';

describe('page request coalescing (1 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first request at once and coalesces rapid clicks into one for the last page', () => {
    const sent: number[] = [];
    const c = createCoalescer<number>((p) => sent.push(p), 1000);
    c.request(1);
    expect(sent).toEqual([1]);
    c.request(2);
    vi.advanceTimersByTime(300);
    c.request(3);
    vi.advanceTimersByTime(300);
    c.request(4);
    vi.advanceTimersByTime(999);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1, 4]);
    vi.advanceTimersByTime(5000);
    expect(sent).toEqual([1, 4]);
    c.request(5);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual([1, 4, 5]);
  });

  it('cancel drops a pending request; flush sends it now', () => {
    const sent: number[] = [];
    const c = createCoalescer<number>((p) => sent.push(p), 1000);
    c.request(1);
    c.request(2);
    expect(c.pending()).toBe(true);
    c.cancel();
    vi.advanceTimersByTime(2000);
    expect(sent).toEqual([1]);
    c.request(3);
    c.request(4);
    c.flush();
    expect(sent).toEqual([1, 3, 4]);
  });
});
