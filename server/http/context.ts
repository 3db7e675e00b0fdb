/**
 * What every route can rely on: the store, the clock, the signed-in licence (request.auth), and the
 * route option `config.auth`: 'token' (default under /api: a valid licence is required), 'none'
 * (the route checks what it needs itself) or 'path-token' (the token may also come from the
 * :token path parameter, for GET/DELETE api/licenses/{token}).
 */
import type { FastifyRequest } from 'fastify';
import type { AuthContext, LicenceClock } from '../auth/licences.js';
import type { Store } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';

export type AuthMode = 'token' | 'none' | 'path-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export interface ServerContext {
  store: Store;
  files: FileStore;
  clock: LicenceClock;
  version: string;
}

/** The token from `token` / `Token` query parameter or the Auth-Token header. */
export function requestToken(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined;
  const fromQuery = q?.token ?? q?.Token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const h = request.headers['auth-token'];
  if (typeof h === 'string' && h) return h;
  return undefined;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route used without authentication');
  return request.auth;
}
