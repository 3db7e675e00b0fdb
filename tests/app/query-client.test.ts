import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { configureErrorHandler } from '../../src/api/error-handler';
import { createQueryClient } from '../../src/app/query-client';

/** The one error handler hears failed queries, except a background check that merely had no connection. */
describe('createQueryClient: which failed queries are reported', () => {
  const notify = vi.fn();
  configureErrorHandler({ notify });
  afterEach(() => notify.mockReset());

  const fail = (error: ApiError, meta: Record<string, unknown>) =>
    createQueryClient()
      .fetchQuery({ queryKey: ['q', Math.random()], queryFn: () => Promise.reject(error), retry: false, meta })
      .catch(() => undefined);
  const network = new ApiError({ kind: 'network', method: 'GET', url: 'api/licenses' });
  const server = new ApiError({ kind: 'http', method: 'GET', url: 'api/licenses', status: 500, serverMessage: 'Boom' });

  it('a background check without a connection says nothing', async () => {
    await fail(network, { background: true });
    expect(notify).not.toHaveBeenCalled();
  });

  it('a background check the server refuses is reported', async () => {
    await fail(server, { background: true });
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('an ordinary query without a connection is reported', async () => {
    await fail(network, {});
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
