/**
 * Idempotency-Key for non-GET requests (docs/architecture.md "Writes: the outbox"). The first answer to a
 * key is stored (idempotency_keys, per user) and replayed for every repeat for at least 8 days, so
 * an outbox replay or a browser re-send never acts twice. Same key with a different request: 422.
 * Same key while the first is still running: 409 (Retry-After: 1). 5xx answers and aborted
 * requests are forgotten, so a retry runs again.
 *
 * A crash forgets nothing, so a record in flight names the process running it: each built server
 * has a boot id (new at every start) and a heartbeat row in server_processes (every 5 s). A running
 * record whose process has stopped beating for 15 s, or has no row, is free: the resend takes it
 * over and runs once. PGlite's data folder is only ever opened by one process, so on PGlite a
 * starting server knows every other process that wrote there is gone and the records of a crash are
 * free at once; on PostgreSQL, shared by several servers, they lapse within 15 s. A process stopped
 * (not crashed) for longer than that loses its records the same way; its late answer is not stored
 * over the new owner's. A record of this very process is running indeed, unless it is 10 minutes old
 * (a leak: a hook that never ran).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '../../src/api/errors.js';
import type { Store } from '../db/store.js';
import { ApiError } from './errors.js';

export const IDEMPOTENCY_KEEP_MS = 9 * 86_400_000;
/** A "running" record older than this was left by a process that died: the next request takes it over. */
const STALE_RUNNING_MS = 10 * 60_000;
const HEARTBEAT_MS = 5_000;
/** A process whose heartbeat is older than this is taken for dead. */
export const OWNER_LAPSE_MS = 15_000;
/** Heartbeat rows of processes gone for this long are removed at start. */
const FORGET_PROCESS_MS = 86_400_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; userId: number; replayed: boolean };
  }
  interface FastifyContextConfig {
    /** A GET that changes something (the spec's inbox move is a GET): it takes the Idempotency-Key too. */
    idempotent?: boolean;
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
  boot_id: string | null;
}

/** bootId: this process's id, new at every start (shared with the job runner's locks). */
export function installIdempotency(app: FastifyInstance, store: Store, now: () => number, bootId: string = randomUUID()) {
  const headerName = IDEMPOTENCY_HEADER.toLowerCase();
  let heartbeat: NodeJS.Timeout | undefined;

  const beat = async () => {
    const t = new Date(now());
    const r = await store.query('UPDATE server_processes SET seen_at = $2 WHERE boot_id = $1', [bootId, t]);
    // Removed as dead while this process was stopped: it is alive again.
    if (r.rowCount === 0) await store.query('INSERT INTO server_processes (boot_id, started_at, seen_at) VALUES ($1, $2, $2) ON CONFLICT (boot_id) DO UPDATE SET seen_at = $2', [bootId, t]);
  };

  app.addHook('onReady', async () => {
    const t = now();
    if (store.kind === 'pglite') await store.query('DELETE FROM server_processes');
    else await store.query('DELETE FROM server_processes WHERE seen_at < $1', [new Date(t - FORGET_PROCESS_MS)]);
    await beat();
    heartbeat = setInterval(() => void beat().catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
  });

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    await store.query('DELETE FROM server_processes WHERE boot_id = $1', [bootId]).catch(() => undefined);
  });

  /** Whether the process that took a record is gone (crashed, or stopped longer than OWNER_LAPSE_MS). */
  const ownerGone = async (owner: string | null, t: number): Promise<boolean> => {
    if (owner === null) return true;
    const r = await store.query<{ seen_at: Date }>('SELECT seen_at FROM server_processes WHERE boot_id = $1', [owner]);
    const seen = r.rows[0]?.seen_at;
    return seen === undefined || t - new Date(seen).getTime() > OWNER_LAPSE_MS;
  };

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE.has(request.method) && !request.routeOptions.config?.idempotent) return;
    const raw = request.headers[headerName];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || key.length > 200) throw new ApiError(400, 'Invalid Idempotency-Key', 'ERROR_INCORRECT_PARAMETERS');
    const userId = request.auth?.userId ?? 0;
    const hash = requestHash(request);
    const t = new Date(now());
    const inserted = await store.query(
      `INSERT INTO idempotency_keys (key, user_id, method, path, request_hash, status, created_at, boot_id)
       VALUES ($1, $2, $3, $4, $5, 'running', $6, $7) ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
      [key, userId, request.method, request.url.split('?')[0] ?? '', hash, t, bootId],
    );
    if (inserted.rowCount > 0) {
      request.idempotency = { key, userId, replayed: false };
      return;
    }
    const r = await store.query<KeyRow>(
      'SELECT request_hash, status, response_status, response_type, response_body, created_at, boot_id FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
    );
    const row = r.rows[0];
    if (!row) throw new ApiError(409, 'The request with this Idempotency-Key is still running', 'ERROR_IDEMPOTENCY_IN_PROGRESS', { 'Retry-After': '1' });
    if (row.request_hash !== hash) throw new ApiError(422, 'This Idempotency-Key was used for a different request', 'ERROR_IDEMPOTENCY_KEY_REUSED');
    if (row.status === 'running') {
      const free = row.boot_id === bootId ? t.getTime() - new Date(row.created_at).getTime() > STALE_RUNNING_MS : await ownerGone(row.boot_id, t.getTime());
      if (free) {
        // Only one resend takes it over, also when several arrive at once.
        const took = await store.query(
          `UPDATE idempotency_keys SET created_at = $3, boot_id = $5
            WHERE user_id = $1 AND key = $2 AND status = 'running' AND created_at = $4 AND boot_id IS NOT DISTINCT FROM $6 RETURNING key`,
          [userId, key, t, row.created_at, bootId, row.boot_id],
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
      await store.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status = 'running' AND boot_id = $3", [idem.userId, idem.key, bootId]);
      return payload;
    }
    let body: string | null = null;
    if (typeof payload === 'string') body = payload;
    else if (Buffer.isBuffer(payload)) body = payload.toString('utf8');
    const type = reply.getHeader('content-type');
    await store.query(
      `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_type = $4, response_body = $5, completed_at = $6
        WHERE user_id = $1 AND key = $2 AND status = 'running' AND boot_id = $7`,
      [idem.userId, idem.key, reply.statusCode, typeof type === 'string' ? type : null, body, new Date(now()), bootId],
    );
    return payload;
  });

  app.addHook('onRequestAbort', async (request) => {
    const idem = request.idempotency;
    if (!idem || idem.replayed) return;
    await store.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status = 'running' AND boot_id = $3", [idem.userId, idem.key, bootId]).catch(() => undefined);
  });
}

export async function purgeIdempotencyKeys(store: Store, now: number): Promise<number> {
  const r = await store.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now - IDEMPOTENCY_KEEP_MS)]);
  return r.rowCount;
}
