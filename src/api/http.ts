/**
 * The client's one fetch wrapper (the page, workers and the service worker; no i18n: its words come
 * from api-text.ts). Every API call goes through `apiRequest`:
 * - the base URL comes from the app's configuration (configureHttp, set once at start),
 * - the current token is stamped on the request as it is sent (query `token` or the Auth-Token
 *   header); it is never part of the URL shown in errors,
 * - every answer is parsed with its zod schema; an answer that does not fit, an HTML page where
 *   JSON was expected, a non-2xx status and a network failure all become an `ApiError`,
 * - a counter of calls in flight drives the busy indicator.
 */
import * as z from 'zod/mini';
import { ApiError, isAbortError } from './api-error';
import { CATALOGUE_VERSION_HEADER, ErrorBody, LOGIN_REDIRECT_HEADER, TOKEN_HEADER } from './errors';
import { noteCatalogueVersion } from './catalogue-version';
import { noteReachable } from './connectivity';
import { apiText } from './api-text';

export interface HttpConfig {
  /** Prefix for every path, e.g. '' (same origin) or 'https://archive.example.com'. */
  baseUrl: () => string;
  /** The current session token, or null when signed out. */
  token: () => string | null;
  fetchFn: (input: string, init?: RequestInit) => Promise<Response>;
}

const config: HttpConfig = {
  baseUrl: () => '',
  token: () => null,
  fetchFn: (input, init) => fetch(input, init),
};

export function configureHttp(c: Partial<HttpConfig>): void {
  Object.assign(config, c);
}

/** The base URL and current token, for calls made outside apiRequest (the validation worker's server check). */
export function httpContext(): { baseUrl: string; token: string | null } {
  return { baseUrl: config.baseUrl(), token: config.token() };
}

// --- calls in flight -------------------------------------------------------------------------
let pending = 0;
const pendingListeners = new Set<() => void>();
function setPending(delta: number) {
  pending = Math.max(0, pending + delta);
  for (const l of pendingListeners) l();
}
export function getPendingCount(): number {
  return pending;
}
export function subscribePending(listener: () => void): () => void {
  pendingListeners.add(listener);
  return () => pendingListeners.delete(listener);
}

// --- requests -------------------------------------------------------------------------------
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface ApiRequest<S extends z.core.$ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, as application/octet-stream (an upload's chunk: src/api/upload.ts); instead of body. */
  rawBody?: Blob | ArrayBuffer | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** How the token travels: `token` query parameter (default), Auth-Token header, or not at all. */
  auth?: 'query' | 'header' | 'none';
  /** Name of the token query parameter where the spec spells it differently (Token). */
  tokenParam?: string;
  schema: S;
  signal?: AbortSignal;
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) p.append(k, String(item));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

async function readText(res: Response): Promise<string> {
  try {
    return await res.text();
  } catch {
    return '';
  }
}

export async function apiRequest<S extends z.core.$ZodType>(req: ApiRequest<S>): Promise<z.output<S>> {
  const method = req.method ?? 'GET';
  const auth = req.auth ?? 'query';
  const shownUrl = req.path + buildQuery(req.query);
  const token = config.token();

  if (auth !== 'none' && !token) {
    throw new ApiError({ kind: 'noToken', method, url: shownUrl, serverMessage: 'LicenseExpired' });
  }
  const query = { ...req.query };
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (auth === 'query' && token) query[req.tokenParam ?? 'token'] = token;
  if (auth === 'header' && token) headers[TOKEN_HEADER] = token;
  let body: string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | undefined;
  if (req.rawBody !== undefined) {
    headers['Content-Type'] = 'application/octet-stream';
    body = req.rawBody;
  } else if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  const url = config.baseUrl().replace(/\/+$/, '') + req.path + buildQuery(query);

  setPending(1);
  try {
    let res: Response;
    try {
      res = await config.fetchFn(url, { method, headers, body, signal: req.signal });
    } catch (e) {
      if (isAbortError(e)) throw e;
      noteReachable(false);
      throw new ApiError({ kind: 'network', method, url: shownUrl, cause: e }, apiText('ERROR_NETWORK', { method, url: shownUrl }));
    }
    noteReachable(true);
    noteCatalogueVersion(res.headers.get(CATALOGUE_VERSION_HEADER));
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.includes('text/html')) {
      throw new ApiError({ kind: 'html', method, url: shownUrl, status: res.status, statusText: res.statusText }, apiText('SESSION_ENDED_MESSAGE'));
    }
    const text = await readText(res);
    if (!res.ok) throw httpError(method, shownUrl, res, text);
    let data: unknown = undefined;
    if (text.trim() !== '') {
      try {
        data = JSON.parse(text);
      } catch (e) {
        throw parseError(method, shownUrl, res, e);
      }
    }
    const parsed = z.safeParse(req.schema, data);
    if (!parsed.success) throw parseError(method, shownUrl, res, parsed.error);
    return parsed.data;
  } finally {
    setPending(-1);
  }
}

/**
 * The error of a non-2xx answer whose body was read as `text`: the server's Message and Key when the
 * body is the spec's error body, else the text itself. Also for calls that read a file's bytes
 * themselves (single export, inbox files) and so cannot go through apiRequest.
 */
export function httpError(method: string, url: string, res: Response, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as bodyText below
  }
  const parsed = ErrorBody.safeParse(body);
  const serverMessage = parsed.success ? parsed.data.Message : undefined;
  return new ApiError({
    kind: 'http',
    method,
    url,
    status: res.status,
    statusText: res.statusText,
    serverMessage,
    key: parsed.success ? parsed.data.Key : undefined,
    bodyText: serverMessage === undefined ? text : undefined,
    body,
    loginRedirect: res.status === 403 && res.headers.has(LOGIN_REDIRECT_HEADER),
  });
}

function parseError(method: string, url: string, res: Response, cause: unknown): ApiError {
  return new ApiError(
    { kind: 'parse', method, url, status: res.status, statusText: res.statusText, cause },
    apiText('ERROR_INVALID_ANSWER', { method, url }),
  );
}
