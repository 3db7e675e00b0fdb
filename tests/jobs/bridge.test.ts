import { expose } from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiErrorInit } from '../../src/api/api-error';
import { errorInit, startJobsWorker, type JobsWorkerApi } from '../../src/sync/jobs-bridge';

describe('the jobs worker bridge', () => {
  it('starts the worker with the API base, brings a session error back as an ApiError; ending it terminates the worker', async () => {
    const { port1, port2 } = new MessageChannel();
    const started: string[] = [];
    const worker: JobsWorkerApi = {
      async start(baseUrl, onStopped) {
        started.push(baseUrl);
        await onStopped(errorInit(new ApiError({ kind: 'http', method: 'GET', url: '/api/jobs/5', status: 499, serverMessage: 'LicenseExpired' })) as ApiErrorInit);
      },
      kick: () => undefined,
      stop: () => undefined,
    };
    expose(worker, port2);
    const terminate = vi.fn(() => {
      port1.close();
      port2.close();
    });
    const errors: ApiError[] = [];
    const stop = startJobsWorker({
      baseUrl: 'https://archive.example.com',
      onSessionError: (e) => errors.push(e),
      start: () => ({ endpoint: port1, terminate }),
    });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(started).toEqual(['https://archive.example.com']);
    expect(errors[0]).toBeInstanceOf(ApiError);
    expect(errors[0]).toMatchObject({ kind: 'http', status: 499, serverMessage: 'LicenseExpired' });
    stop();
    expect(terminate).toHaveBeenCalledOnce();
  });

  it('errorInit passes only API errors (anything else is not a session error)', () => {
    expect(errorInit(new Error('boom'))).toBeNull();
    expect(errorInit(new ApiError({ kind: 'noToken', method: 'GET', url: '/api/jobs' }))).toMatchObject({ kind: 'noToken' });
  });
});
