/** Server job answers (src/api/jobs.ts Job) for the jobs tests. */
import type { Job } from '../../src/api/jobs';

export function job(id: number, patch: Partial<Job> = {}): Job {
  return {
    Id: id,
    Kind: 'move',
    State: 'running',
    Database: 1,
    Key: null,
    Archive: 3,
    DestinationArchive: 4,
    Count: 10,
    Received: 10,
    Processed: 0,
    Succeeded: 0,
    Failed: 0,
    Notes: [],
    Created: '2026-11-25T03:00:00.000Z',
    Updated: '2026-11-25T03:00:00.000Z',
    Finished: null,
    ...patch,
  };
}
