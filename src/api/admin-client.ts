/**
 * The administration console's one call (the console spec §7): every admin call goes through
 * adminCall, which
 * - sends the token in the Auth-Token header (apiRequest's auth 'header'),
 * - turns the request body's camelCase keys into the wire's PascalCase (case.ts toPascal) and the
 *   answer's PascalCase keys into camelCase (toCamel), here and nowhere else,
 * - parses the answer with the contract's schema, written in the wire's PascalCase as every schema
 *   of src/api is, before converting it.
 * A write that succeeds (any method but GET) is announced to onAdminChange's listeners, so the user
 * app's caches of what the console changed are dropped at once (issue 13 item 7).
 * Errors are apiRequest's ApiError: the one error handler (error-handler.ts) shows the server's
 * Message, or method, url and status text; 'Account Not Authorized For User Management' is ignored.
 */
import * as z from 'zod/mini';
import { toCamel, toPascal, type Camelize } from './case';
import { apiRequest, type QueryValue } from './http';

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdminCallOptions<S extends z.core.$ZodType> {
  query?: Record<string, QueryValue>;
  /** camelCase; sent as PascalCase. */
  body?: unknown;
  /** Camel keys the wire writes all in capitals (e.g. iid for IID). */
  upperKeys?: ReadonlySet<string>;
  /** The answer's schema, in the wire's PascalCase. */
  schema: S;
  signal?: AbortSignal;
}

export interface AdminChange {
  method: Exclude<AdminMethod, 'GET'>;
  path: string;
}

const listeners = new Set<(change: AdminChange) => void>();

/** Called after every admin write that succeeded; returns the unsubscribe. */
export function onAdminChange(listener: (change: AdminChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function adminCall<S extends z.core.$ZodType>(method: AdminMethod, path: string, opts: AdminCallOptions<S>): Promise<Camelize<z.output<S>>> {
  const answer = await apiRequest({
    method,
    path,
    query: opts.query,
    body: opts.body === undefined ? undefined : toPascal(opts.body, opts.upperKeys),
    auth: 'header',
    schema: opts.schema,
    signal: opts.signal,
  });
  if (method !== 'GET') for (const l of listeners) l({ method, path });
  return toCamel(answer);
}

/** The answer of a call that answers nothing useful (DELETE). */
export const NoAnswer = z.unknown();
