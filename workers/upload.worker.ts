/**
 * The upload worker: sends the stored uploads (workers/upload.ts, src/sync/upload-engine.ts) off
 * the main thread, exposed over Comlink and started and ended by src/sync/upload-bridge.ts. With
 * several tabs open one worker sends at a time under the Web Lock UPLOAD_LOCK
 * (workers/locked-loop.ts), and the next takes over when that tab closes (the others' trays read
 * the same records), so no two tabs ever send the same upload.
 */
import { expose } from 'comlink';
import { fetchUploadState, sendUploadChunk, startUploadJob } from '../src/api/upload';
import { db } from '../src/db/db';
import { errorInit } from '../src/sync/jobs-bridge';
import type { UploadWorkerApi } from '../src/sync/upload-bridge';
import { lockedLoopHost } from './locked-loop';
import { startUploadLoop } from './upload';

export const UPLOAD_LOCK = 'uploads-send';

const host = lockedLoopHost(UPLOAD_LOCK);

const api: UploadWorkerApi = {
  start: (baseUrl, onStopped) =>
    host.start(baseUrl, (owner, done) =>
      startUploadLoop({
        database: db,
        owner,
        api: { start: (body, key) => startUploadJob(body, key), state: (id) => fetchUploadState(id), chunk: (id, i, data) => sendUploadChunk(id, i, data) },
        onStopped: (e) => {
          onStopped(errorInit(e));
          done();
        },
      }),
    ),
  kick: () => host.kick(),
  stop: () => host.stop(),
};

expose(api);
