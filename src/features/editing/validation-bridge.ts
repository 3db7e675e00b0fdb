/**
 * The page's one way into the validation worker (STYLE.md: one Comlink bridge per worker). The
 * worker is started on first use and ended after IDLE_MS without calls; an AbortSignal rejects
 * its call with an AbortError (and ends the worker when no other call is running on it, which
 * also cancels its server check). State: the current worker and its running calls, in memory only.
 */
import { releaseProxy, wrap, type Endpoint, type Remote } from 'comlink';
import type { Field } from '../../api/archives';
import type { FieldInput, ServerCheckContext, ValidationOutcome, validate } from '../../fields/validation';

export type { FieldCheck, FieldInput, ServerCheckContext, ValidationOutcome } from '../../fields/validation';

export const IDLE_MS = 30_000;

interface ValidationApi {
  validate: typeof validate;
}

export interface WorkerHandle {
  endpoint: Endpoint;
  terminate(): void;
}

function startWorker(): WorkerHandle {
  const worker = new Worker(new URL('../../../workers/validation.worker.ts', import.meta.url), { type: 'module', name: 'validation' });
  return { endpoint: worker, terminate: () => worker.terminate() };
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The validation was aborted', 'AbortError');
}

export interface ValidationBridge {
  validate(
    fields: Field[],
    values: FieldInput[],
    locale: string,
    opts?: { ctx?: ServerCheckContext; signal?: AbortSignal },
  ): Promise<ValidationOutcome>;
  /** Ends the worker now (tests, sign-out). */
  terminate(): void;
  /** True while a worker is running. */
  readonly running: boolean;
}

export function createValidationBridge(start: () => WorkerHandle = startWorker, idleMs = IDLE_MS): ValidationBridge {
  let handle: WorkerHandle | null = null;
  let api: Remote<ValidationApi> | null = null;
  let inFlight = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    clearTimeout(idle);
    idle = undefined;
    api?.[releaseProxy]();
    handle?.terminate();
    handle = null;
    api = null;
    inFlight = 0;
  };

  return {
    get running() {
      return handle !== null;
    },
    terminate: stop,
    async validate(fields, values, locale, opts = {}) {
      const { ctx, signal } = opts;
      if (signal?.aborted) throw abortError(signal);
      if (!handle || !api) {
        handle = start();
        api = wrap<ValidationApi>(handle.endpoint);
      }
      const mine = handle;
      const remote = api;
      clearTimeout(idle);
      inFlight++;
      let onAbort: (() => void) | undefined;
      try {
        const call = remote.validate(fields, values, locale, ctx);
        if (!signal) return await call;
        return await new Promise<ValidationOutcome>((resolve, reject) => {
          onAbort = () => {
            reject(abortError(signal));
            if (handle === mine && inFlight === 1) stop();
          };
          signal.addEventListener('abort', onAbort, { once: true });
          call.then(resolve, reject);
        });
      } finally {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        if (handle === mine) {
          inFlight--;
          if (inFlight === 0) idle = setTimeout(stop, idleMs);
        }
      }
    },
  };
}

let shared: ValidationBridge | undefined;

/** Validates in the shared worker: local rules, then the server check when ctx is given. */
export function validateFields(
  fields: Field[],
  values: FieldInput[],
  locale: string,
  opts?: { ctx?: ServerCheckContext; signal?: AbortSignal },
): Promise<ValidationOutcome> {
  shared ??= createValidationBridge();
  return shared.validate(fields, values, locale, opts);
}
