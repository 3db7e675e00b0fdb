/** A fresh Dexie database, a fake server behind fetch and a token that tests can change. */
import 'fake-indexeddb/auto';
import { configureHttp } from '../../src/api/http';
import { ArchiveDb } from '../../src/db/db';
import { drainOnce, type DrainOptions } from '../../src/sync/drain';
import { enqueueFieldEdit, type FieldEdit } from '../../src/sync/kinds/field-data';
import { jsonResponse } from '../api/fake-fetch';

export interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Answer = (req: Sent) => Response | Promise<Response>;

export function setup() {
  const database = new ArchiveDb(`outbox-${Math.random()}`);
  const state = { token: 'tok-1' as string | null };
  const sent: Sent[] = [];
  let answer: Answer = () => jsonResponse({ Rev: 2, Fields: [] });
  configureHttp({
    baseUrl: () => '',
    token: () => state.token,
    fetchFn: async (url, init) => {
      const req: Sent = {
        url,
        method: init?.method ?? 'GET',
        headers: { ...(init?.headers as Record<string, string>) },
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      };
      sent.push(req);
      return answer(req);
    },
  });
  const sessionErrors: unknown[] = [];
  const opts = (extra: DrainOptions = {}): DrainOptions => ({
    database,
    token: () => state.token,
    onSessionError: (e) => sessionErrors.push(e),
    ...extra,
  });
  const edit = (docId: number, fields: FieldEdit['fields'], baseStamp: number | null = 1) =>
    enqueueFieldEdit({ dbId: 1, archiveId: 2, docId, hash: `hash-${docId}`, fields, baseStamp }, database);
  return {
    database,
    state,
    sent,
    sessionErrors,
    opts,
    edit,
    setAnswer: (a: Answer) => (answer = a),
    drain: (extra: DrainOptions = {}) => drainOnce(opts(extra)),
    entries: () => database.outbox.orderBy('seq').toArray(),
  };
}

export const docOf = (url: string): number => Number(/document\/(\d+)\//.exec(url)?.[1]);
export { jsonResponse };
