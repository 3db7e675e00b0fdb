/**
 * Which stored record a loop worker (uploads, pins) works next: the oldest of the user's records that
 * can be worked, unless it waits (state 'waiting') until its nextAttemptAt; else when the next is due.
 */
export interface DueRecord {
  owner?: string;
  state: string;
  createdAt: number;
  nextAttemptAt?: number;
}

export function nextDue<R extends DueRecord>(records: readonly R[], owner: string | null, now: number, workable: (r: R) => boolean): { record?: R; at?: number } {
  let at: number | undefined;
  for (const r of [...records].sort((a, b) => a.createdAt - b.createdAt)) {
    if ((r.owner !== undefined && r.owner !== owner) || !workable(r)) continue;
    const due = r.state === 'waiting' ? (r.nextAttemptAt ?? 0) : 0;
    if (due <= now) return { record: r };
    at = at === undefined ? due : Math.min(at, due);
  }
  return { at };
}
