/**
 * The pin worker: fetches the parts of the documents kept offline (src/sync/pins.ts workPin) off the
 * main thread, exposed over Comlink and started and ended by src/sync/pin-bridge.ts while a user is
 * signed in. With several tabs open one worker fetches at a time under the Web Lock PIN_LOCK
 * (workers/locked-loop.ts); the others' trays read the same records.
 */
import { expose } from 'comlink';
import { db } from '../src/db/db';
import { errorInit } from '../src/sync/jobs-bridge';
import { pinApi } from '../src/sync/pin-api';
import { nextPin, workPin } from '../src/sync/pins';
import type { LoopWorkerApi } from '../src/sync/upload-bridge';
import { lockedLoopHost } from './locked-loop';
import { startRecordLoop } from './record-loop';

export const PIN_LOCK = 'pins-fetch';

const host = lockedLoopHost(PIN_LOCK);

const api: LoopWorkerApi = {
  start: (baseUrl, onStopped) =>
    host.start(baseUrl, (owner, done) =>
      startRecordLoop<string>({
        name: 'Keep offline',
        pick: async (now) => nextPin(await db.pins.toArray(), owner, now),
        work: (key) => workPin(db, key, pinApi()),
        watch: () => db.pins.where('state').anyOf('queued', 'waiting').primaryKeys(),
        wakeWaiting: () => db.pins.where('state').equals('waiting').modify({ nextAttemptAt: 0 }),
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
