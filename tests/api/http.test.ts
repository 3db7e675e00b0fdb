import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/api/api-error';
import { DatabaseList } from '../../src/api/databases';
import { apiRequest, buildQuery, configureHttp, getPendingCount } from '../../src/api/http';
import { fakeFetch, jsonResponse } from './fake-fetch';

describe('apiRequest', () => {
  it('stamps the token as the token query parameter and parses the answer', async () => {
    const f = fakeFetch(() => jsonResponse([{ Id: 1, Name: 'Sales' }]));
    configureHttp({ fetchFn: f.fn, token: () => 'abc', baseUrl: () => 'https://a.example/' });
    const dbs = await apiRequest({ path: '/api/dbs', schema: DatabaseList });
    expect(dbs).toEqual([{ Id: 1, Name: 'Sales' }]);
    expect(f.calls[0]!.url).toBe('https://a.example/api/dbs?token=abc');
  });

  it('sends the token as the Auth-Token header when asked', async () => {
    const f = fakeFetch(() => jsonResponse({ ok: true }));
    configureHttp({ fetchFn: f.fn, token: () => 'abc', baseUrl: () => '' });
    await apiRequest({ path: '/api/admin/inboxes', auth: 'header', schema: z.unknown() });
    expect(f.calls[0]!.url).toBe('/api/admin/inboxes');
    expect((f.calls[0]!.init!.headers as Record<string, string>)['Auth-Token']).toBe('abc');
  });

  it('sends no token for auth none and JSON bodies with a content type', async () => {
    const f = fakeFetch(() => new Response(null, { status: 204 }));
    configureHttp({ fetchFn: f.fn, token: () => null, baseUrl: () => '' });
    await apiRequest({ method: 'POST', path: '/api/x', auth: 'none', body: { A: 1 }, schema: z.undefined() });
    expect(f.calls[0]!.url).toBe('/api/x');
    expect(f.calls[0]!.init!.body).toBe('{"A":1}');
    expect((f.calls[0]!.init!.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('an answer that does not fit its schema is an ApiError with a clear message, not a crash', async () => {
    const f = fakeFetch(() => jsonResponse([{ Id: 'one', Title: 'Sales' }]));
    configureHttp({ fetchFn: f.fn, token: () => 'abc', baseUrl: () => '' });
    const e = await apiRequest({ path: '/api/dbs', schema: DatabaseList }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).kind).toBe('parse');
    expect((e as ApiError).message).toBe("The server's answer to GET /api/dbs was not in the expected format.");
  });

  it('an answer that is not JSON is a parse error', async () => {
    const f = fakeFetch(() => new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } }));
    configureHttp({ fetchFn: f.fn, token: () => 'abc', baseUrl: () => '' });
    const e = (await apiRequest({ path: '/api/dbs', schema: DatabaseList }).catch((x: unknown) => x)) as ApiError;
    expect(e.kind).toBe('parse');
  });

  it('a network failure is an ApiError of kind network; an abort stays an AbortError', async () => {
    configureHttp({ fetchFn: () => Promise.reject(new TypeError('Failed to fetch')), token: () => 'abc' });
    const e = (await apiRequest({ path: '/api/dbs', schema: DatabaseList }).catch((x: unknown) => x)) as ApiError;
    expect(e.kind).toBe('network');
    configureHttp({ fetchFn: () => Promise.reject(new DOMException('aborted', 'AbortError')) });
    const a = (await apiRequest({ path: '/api/dbs', schema: DatabaseList }).catch((x: unknown) => x)) as Error;
    expect(a.name).toBe('AbortError');
  });

  it('reads Message and Key from error bodies', async () => {
    const f = fakeFetch(() => jsonResponse({ Message: 'All licenses are in use', Key: 'ERROR_CANT_OBTAIN_LICENSE' }, { status: 409, statusText: 'Conflict' }));
    configureHttp({ fetchFn: f.fn, token: () => 'abc' });
    const e = (await apiRequest({ path: '/api/licenses', schema: z.unknown() }).catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(409);
    expect(e.serverMessage).toBe('All licenses are in use');
    expect(e.key).toBe('ERROR_CANT_OBTAIN_LICENSE');
  });

  it('counts calls in flight', async () => {
    let release!: (r: Response) => void;
    configureHttp({ fetchFn: () => new Promise<Response>((r) => (release = r)), token: () => 'abc' });
    const p = apiRequest({ path: '/api/dbs', schema: DatabaseList });
    expect(getPendingCount()).toBe(1);
    release(jsonResponse([]));
    await p;
    expect(getPendingCount()).toBe(0);
  });

  it('builds repeated query parameters and skips empty ones', () => {
    expect(buildQuery({ RequestedPages: [1, 3], a: undefined, b: null, c: false })).toBe('?RequestedPages=1&RequestedPages=3&c=false');
    expect(buildQuery({})).toBe('');
  });
});
