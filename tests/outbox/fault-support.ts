/**
 * The fault injector of the outbox fault test (issue 4 item 6): a fetch stand-in that wraps the
 * real fetch and, per request, chosen by a seeded PRNG, lets it through or breaks it the way a
 * network, a proxy, a browser or a dying page does. Every request that really reaches the server is
 * kept in `inFlight`, so the test can wait for the server to finish before it compares.
 */

/** mulberry32: small, fast and deterministic for a given seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const FAULTS = [
  /** The connection is gone before the request leaves: nothing reaches the server. */
  'cutBefore',
  /** The server reads the request and commits; the connection drops before the answer arrives. */
  'cutAfterCommit',
  /** The connection drops while the request is on its way or being handled (the client aborts). */
  'cutInFlight',
  /** A proxy answers 503 without passing the request on. */
  'unavailable503',
  /** The server commits, but the client gets a 500 (a proxy or a crash after the commit). */
  'error500AfterCommit',
  /** Chromium re-sends the request with identical headers; the page gets one of the two answers. */
  'duplicateSend',
  /** The page is reloaded while this request is out: the drain never sees an answer. */
  'reload',
] as const;
export type Fault = (typeof FAULTS)[number];

/** Probability of each fault per request; the rest pass untouched. */
export type FaultRates = Record<Fault, number>;

type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

const networkError = () => new TypeError('Failed to fetch');
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export interface Injector {
  fetchFn: FetchFn;
  counts: Record<Fault | 'requests' | 'passed' | 'answers409', number>;
  /** Resolves when a 'reload' fault kills the current page (then call `nextPage`). */
  pageKilled(): Promise<void>;
  nextPage(): void;
  /** Requests that reached (or may have reached) the server and whose answer is not in yet. */
  settle(): Promise<void>;
  /** Turns faults off (for sign-in and the final reads). */
  enabled: boolean;
}

export function faultInjector(realFetch: FetchFn, random: () => number, rates: FaultRates): Injector {
  const counts = { requests: 0, passed: 0, answers409: 0, ...Object.fromEntries(FAULTS.map((f) => [f, 0])) } as Injector['counts'];
  const inFlight = new Set<Promise<unknown>>();
  let kill: { promise: Promise<void>; resolve: () => void };
  const newKill = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    kill = { promise, resolve };
  };
  newKill();

  /** Sends for real; the request is tracked until its answer (body included) is in. */
  const send = (input: string, init?: RequestInit): Promise<Response> => {
    const p = realFetch(input, init).then(async (res) => {
      // Read the body here, so that a discarded answer still completes on the server side.
      const body = await res.text();
      if (res.status === 409) counts.answers409++;
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    });
    const tracked = p.catch(() => undefined);
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
    return p;
  };

  const choose = (): Fault | null => {
    let x = random();
    for (const f of FAULTS) {
      if (x < rates[f]) return f;
      x -= rates[f];
    }
    return null;
  };

  const inj: Injector = {
    counts,
    enabled: true,
    pageKilled: () => kill.promise,
    nextPage: newKill,
    settle: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    fetchFn: async (input, init) => {
      counts.requests++;
      const fault = inj.enabled ? choose() : null;
      if (fault === null) {
        counts.passed++;
        return send(input, init);
      }
      counts[fault]++;
      switch (fault) {
        case 'cutBefore':
          throw networkError();
        case 'cutAfterCommit':
          await send(input, init);
          throw networkError();
        case 'cutInFlight': {
          const ac = new AbortController();
          const p = send(input, { ...init, signal: ac.signal });
          // Somewhere between "not read yet" and "being handled".
          await new Promise((r) => setTimeout(r, Math.floor(random() * 6)));
          ac.abort();
          try {
            await p;
          } catch {
            // aborted
          }
          throw networkError();
        }
        case 'unavailable503':
          return jsonAnswer(503, { Message: 'Service Unavailable' });
        case 'error500AfterCommit':
          await send(input, init);
          return jsonAnswer(500, { Message: 'An unknown error occured' });
        case 'duplicateSend': {
          const answers = await Promise.allSettled([send(input, init), send(input, init)]);
          const pick = answers[random() < 0.5 ? 0 : 1]!;
          if (pick.status === 'rejected') throw networkError();
          return pick.value;
        }
        case 'reload': {
          // The page dies before the request leaves, while it is out, or after the answer came.
          const when = random();
          if (when < 1 / 3) {
            kill.resolve();
          } else if (when < 2 / 3) {
            void send(input, init).catch(() => undefined);
            kill.resolve();
          } else {
            await send(input, init).catch(() => undefined);
            kill.resolve();
          }
          return never<Response>();
        }
      }
    },
  };
  return inj;
}
