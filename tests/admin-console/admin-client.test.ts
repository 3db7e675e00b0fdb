import { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, onAdminChange } from '../../src/api/admin-client';
import { configureHttp } from '../../src/api/http';
import { invalidateServerData } from '../../src/sync/react/server-data';

const seen: { url: string; init?: RequestInit }[] = [];
function answer(status: number, body: unknown) {
  configureHttp({
    baseUrl: () => '',
    token: () => 'tok-1',
    fetchFn: async (url, init) => {
      seen.push({ url, init });
      return new Response(JSON.stringify(body), { status, statusText: status === 200 ? 'OK' : 'Forbidden', headers: { 'content-type': 'application/json' } });
    },
  });
}
afterEach(() => {
  seen.length = 0;
});

const Answer = z.object({ Id: z.int(), BasePath: z.object({ Path: z.string(), Default: z.boolean() }), Fields: z.array(z.int()) });

describe('adminCall, the console\'s one call', () => {
  it('sends the token in Auth-Token and the body in PascalCase, and answers in camelCase after parsing', async () => {
    answer(200, { Id: 7, BasePath: { Path: 'x', Default: false }, Fields: [1, 2] });
    const out = await adminCall('PUT', '/api/admin/databases/1/archives/7', { body: { name: 'A', basePath: { path: 'x', default: false }, fields: [1, 2] }, schema: Answer });
    expect(out).toEqual({ id: 7, basePath: { path: 'x', default: false }, fields: [1, 2] });
    const headers = seen[0]!.init!.headers as Record<string, string>;
    expect(headers['Auth-Token']).toBe('tok-1');
    expect(seen[0]!.url).toBe('/api/admin/databases/1/archives/7');
    expect(JSON.parse(seen[0]!.init!.body as string)).toEqual({ Name: 'A', BasePath: { Path: 'x', Default: false }, Fields: [1, 2] });
  });

  it('refuses an answer that does not fit the schema, and carries the server Message of a refusal', async () => {
    answer(200, { Id: 'seven' });
    await expect(adminCall('GET', '/api/admin/databases', { schema: Answer })).rejects.toMatchObject({ kind: 'parse' });
    answer(403, { Message: 'Only an administrator of this database may do this', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' });
    await expect(adminCall('GET', '/api/admin/databases', { schema: Answer })).rejects.toMatchObject({ status: 403, serverMessage: 'Only an administrator of this database may do this' });
  });

  it('announces writes that succeeded (not reads, not refusals), and the user app\'s caches are then stale', async () => {
    const changes: string[] = [];
    const off = onAdminChange((c) => changes.push(`${c.method} ${c.path}`));
    answer(200, { Id: 1, BasePath: { Path: '', Default: true }, Fields: [1] });
    await adminCall('GET', '/a', { schema: Answer });
    await adminCall('POST', '/b', { body: {}, schema: Answer });
    answer(403, { Message: 'no' });
    await adminCall('DELETE', '/c', { schema: Answer }).catch(() => undefined);
    off();
    expect(changes).toEqual(['POST /b']);

    const client = new QueryClient();
    client.setQueryData(['archiveFields', 'u', 1, 2], [1]);
    client.setQueryData(['search', 'list', 'u', 1], []);
    client.setQueryData(['admin-console', 'u', 'archives', 1], []);
    client.setQueryData(['admin', 'rights', 'u'], {});
    await invalidateServerData(client);
    const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([stale(['archiveFields', 'u', 1, 2]), stale(['search', 'list', 'u', 1]), stale(['admin-console', 'u', 'archives', 1]), stale(['admin', 'rights', 'u'])]).toEqual([true, true, false, false]);
  });
});
