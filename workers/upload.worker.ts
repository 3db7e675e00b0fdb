/**
 * The upload worker: sends the stored uploads (workers/upload.ts, src/sync/upload-engine.ts) off
 * the main thread, exposed over Comlink and started and ended by src/sync/upload-bridge.ts. It reads
 * the session from Dexie (no window here) and sends the token with its own copy of the fetch
 * wrapper. With several tabs open one worker sends at a time: each holds the Web Lock UPLOAD_LOCK
 * while it works, and the next takes over when that tab closes (the others' trays read the same
 * records), so no two tabs ever send the same upload.
 */
import { expose } from 'comlink';
import { configureHttp } from '../src/api/http';
import { fetchUploadState, sendUploadChunk, startUploadJob } from '../src/api/upload';
import { db } from '../src/db/db';
import { getToken, loadSession } from '../src/session/session';
import { errorInit } from '../src/sync/jobs-bridge';
import type { UploadWorkerApi } from '../src/sync/upload-bridge';
import { startUploadLoop, type UploadLoop } from './upload';

export const UPLOAD_LOCK = 'uploads-send';

let loop: UploadLoop | null = null;
let release: (() => void) | null = null;
let generation = 0;

const api: UploadWorkerApi = {
  async start(baseUrl, onStopped) {
    api.stop();
    const mine = generation;
    const session = await loadSession();
    if (!session || mine !== generation) return;
    configureHttp({ baseUrl: () => baseUrl, token: getToken });
    const run = () =>
      new Promise<void>((resolve) => {
        if (mine !== generation) return resolve();
        loop = startUploadLoop({
          database: db,
          owner: session.userName,
          api: { start: (body, key) => startUploadJob(body, key), state: (id) => fetchUploadState(id), chunk: (id, i, data) => sendUploadChunk(id, i, data) },
          onStopped: (e) => {
            onStopped(errorInit(e));
            resolve();
          },
        });
        release = () => {
          loop?.stop();
          loop = null;
          resolve();
        };
      });
    const locks = (self.navigator as { locks?: LockManager }).locks;
    // Not awaited: a second tab's worker waits here until the first one lets go.
    if (locks) void locks.request(UPLOAD_LOCK, run).catch(() => undefined);
    else void run();
  },
  kick() {
    loop?.kick();
  },
  stop() {
    generation++;
    release?.();
    release = null;
  },
};

expose(api);
