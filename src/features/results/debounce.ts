/**
 * Page requests are debounced by 1 s (the user-app spec §4, §9): the first request after a quiet second
 * goes at once (leading edge), requests made while the window is open coalesce into one request for
 * the last value, sent when the user has stopped for `delayMs` (trailing edge). The grid itself
 * already shows the chosen page from the cache; only server requests wait.
 */
export interface Coalescer<T> {
  request(value: T): void;
  /** Drops a pending trailing request. */
  cancel(): void;
  /** Sends a pending trailing request now. */
  flush(): void;
  pending(): boolean;
}

export function createCoalescer<T>(
  send: (value: T) => void,
  delayMs: number,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (id: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  },
): Coalescer<T> {
  let timer: unknown = null;
  let waiting: { value: T } | null = null;

  const open = () => {
    if (timer !== null) timers.clear(timer);
    timer = timers.set(() => {
      timer = null;
      if (waiting) {
        const { value } = waiting;
        waiting = null;
        send(value);
        open();
      }
    }, delayMs);
  };

  return {
    request(value) {
      if (timer === null) {
        send(value);
        open();
      } else {
        waiting = { value };
        open();
      }
    },
    cancel() {
      waiting = null;
      if (timer !== null) timers.clear(timer);
      timer = null;
    },
    flush() {
      if (!waiting) return;
      const { value } = waiting;
      waiting = null;
      send(value);
      open();
    },
    pending: () => waiting !== null,
  };
}
