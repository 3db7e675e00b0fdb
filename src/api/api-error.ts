/**
 * The one error type every API call of the client throws (src/api/http.ts) and the one error
 * handler reads (src/api/error-handler.ts). Plain data, no DOM: the server and workers may use it.
 */
export type ApiErrorKind =
  /** The server answered with a status outside 2xx. */
  | 'http'
  /** The answer did not fit the contract's schema (or was not JSON). */
  | 'parse'
  /** An API call answered with an HTML page: the session is gone, sign in again. */
  | 'html'
  /** The call needs a token and there is none. */
  | 'noToken'
  /** The request never got an answer (offline, DNS, CORS, ...). */
  | 'network';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  url: string;
  status?: number;
  statusText?: string;
  /** The server's `Message`, when the error body had one. */
  serverMessage?: string;
  /** The server's `Key` (catalogue key), when the error body had one. */
  key?: string;
  /** The raw body text, when it was not a JSON error body. */
  bodyText?: string;
  /** The whole JSON error body, for answers that carry more than Message/Key (e.g. a 409 conflict's Current). */
  body?: unknown;
  /** The 403 answer carried the login redirect header. */
  loginRedirect?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly serverMessage: string | undefined;
  readonly key: string | undefined;
  readonly bodyText: string | undefined;
  readonly body: unknown;
  readonly loginRedirect: boolean;

  constructor(init: ApiErrorInit, message?: string) {
    super(message ?? init.serverMessage ?? `${init.method} ${init.url} ${init.statusText ?? ''}`.trim(), { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.method = init.method;
    this.url = init.url;
    this.status = init.status ?? 0;
    this.statusText = init.statusText ?? '';
    this.serverMessage = init.serverMessage;
    this.key = init.key;
    this.bodyText = init.bodyText;
    this.body = init.body;
    this.loginRedirect = init.loginRedirect ?? false;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}
