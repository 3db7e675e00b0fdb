/**
 * Idempotency-Key for non-GET requests (ARCHITECTURE.md "Writes: the outbox"). The first answer to a
 * key is stored (idempotency_keys, per user) and replayed for every repeat for at least 8 days, so
 * an outbox replay or a browser re-send never acts twice. Same key with a different request: 422.
 * Same key while the first is still running: 409 (Retry-After: 1). 5xx answers and aborted
 * requests are forgotten, so a retry runs again.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '../../src/api/errors.js';
import type { Store } from '../db/store.js';
import { ApiError } from './errors.js';

export const IDEMPOTENCY_KEEP_MS = 9 * 86_400_000;
/** A "running" record older than this was left by a process that died: the next request takes it over. */
const STALE_RUNNING_MS = 10 * 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; userId: number; replayed: boolean };
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers that change what a request does (the base Rev of an edit, the document it names). */
const MEANINGFUL_HEADERS = ['if-match', 'secure-id'] as const;

export function requestHash(request: FastifyRequest): string {
  const url = new URL(request.url, 'http://x');
  url.searchParams.delete('token');
  url.searchParams.delete('Token');
  url.searchParams.sort();
  const headers = MEANINGFUL_HEADERS.flatMap((h) => {
    const v = request.headers[h];
    return v === undefined ? [] : [`${h}: ${Array.isArray(v) ? v.join(', ') : v}\n`];
  }).join('');
  return createHash('sha256')
    .update(`${request.method} ${url.pathname}?${url.searchParams.toString()}\n${headers}`)
    .update(request.body === undefined ? '' : Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body))
    .digest('hex');
}

interface KeyRow {
  request_hash: string;
  status: string;
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  created_at: Date;
}

export function installIdempotency(app: FastifyInstance, store: Store, now: () => number) {
  const headerName = IDEMPOTENCY_HEADER.toLowerCase();

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE.has(request.method)) return;
    const raw = request.headers[headerName];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || key.length > 200) throw new ApiError(400, 'Invalid Idempotency-Key', 'ERROR_INCORRECT_PARAMETERS');
    const userId = request.auth?.userId ?? 0;
    const hash = requestHash(request);
    const t = new Date(now());
    const inserted = await store.query(
      `INSERT INTO idempotency_keys (key, user_id, method, path, request_hash, status, created_at)
       VALUES ($1, $2, $3, $4, $5, 'running', $6) ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
      [key, userId, request.method, request.url.split('?')[0] ?? '', hash, t],
    );
    if (inserted.rowCount > 0) {
      request.idempotency = { key, userId, replayed: false };
      return;
    }
    const r = await store.query<KeyRow>('SELECT request_hash, status, response_status, response_type, response_body, created_at FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key]);
    const row = r.rows[0];
    if (!row) throw new ApiError(409, 'The request with this Idempotency-Key is still running', 'ERROR_IDEMPOTENCY_IN_PROGRESS', { 'Retry-After': '1' });
    if (row.request_hash !== hash) throw new ApiError(422, 'This Idempotency-Key was used for a different request', 'ERROR_IDEMPOTENCY_KEY_REUSED');
    if (row.status === 'running') {
      if (t.getTime() - new Date(row.created_at).getTime() > STALE_RUNNING_MS) {
        const took = await store.query(
          `UPDATE idempotency_keys SET created_at = $3 WHERE user_id = $1 AND key = $2 AND status = 'running' AND created_at = $4 RETURNING key`,
          [userId, key, t, row.created_at],
        );
        if (took.rowCount > 0) {
          request.idempotency = { key, userId, replayed: false };
          return;
        }
      }
      throw new ApiError(409, 'The request with this Idempotency-Key is still running', 'ERROR_IDEMPOTENCY_IN_PROGRESS', { 'Retry-After': '1' });
    }
    request.idempotency = { key, userId, replayed: true };
    reply.code(row.response_status ?? 200).header('Idempotent-Replayed', 'true');
    if (row.response_type) reply.type(row.response_type);
    return reply.send(row.response_body ?? undefined);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem || idem.replayed) return payload;
    if (reply.statusCode >= 500) {
      await store.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status = 'running'", [idem.userId, idem.key]);
      return payload;
    }
    let body: string | null = null;
    if (typeof payload === 'string') body = payload;
    else if (Buffer.isBuffer(payload)) body = payload.toString('utf8');
    const type = reply.getHeader('content-type');
    await store.query(
      `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_type = $4, response_body = $5, completed_at = $6
        WHERE user_id = $1 AND key = $2`,
      [idem.userId, idem.key, reply.statusCode, typeof type === 'string' ? type : null, body, new Date(now())],
    );
    return payload;
  });

  app.addHook('onRequestAbort', async (request) => {
    const idem = request.idempotency;
    if (!idem || idem.replayed) return;
    await store.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status = 'running'", [idem.userId, idem.key]).catch(() => undefined);
  });
}

export async function purgeIdempotencyKeys(store: Store, now: number): Promise<number> {
  const r = await store.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now - IDEMPOTENCY_KEEP_MS)]);
  return r.rowCount;
}
