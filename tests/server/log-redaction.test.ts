/**
 * Tokens stay out of the log and out of caches: a test server logging every request (level info)
 * into memory is called with the token spelled every way the query parser reads it, and in headers;
 * the answers that carry a token say no-store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/http/log-redaction';
import { basic, signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
const lines: string[] = [];
let token = '';

beforeAll(async () => {
  s = await startServer({ logger: { destination: { write: (line) => void lines.push(line) }, level: 'info' } });
  token = await signIn(s, 'user');
});
afterAll(async () => {
  await s?.close();
});

describe('the log', () => {
  it('never shows a token, however the query spells its name, nor a header that carries one', async () => {
    const spellings = ['tok%65n', '%74oken', 'TOKEN', 'Tok%65n', '%54%4F%4B%45%4E'];
    for (const name of spellings) {
      const r = await s.app.inject({ method: 'GET', url: `/api/dbs?${name}=${token}&x=1` });
      // The spelling really signs in when the parser reads it as token (or Token).
      if (['tok%65n', '%74oken', 'Tok%65n'].includes(name)) expect(r.statusCode, name).toBe(200);
    }
    await s.app.inject({ method: 'GET', url: '/api/dbs', headers: { 'auth-token': token, authorization: `Bearer ${token}`, cookie: `t=${token}` } });
    await s.app.inject({ method: 'GET', url: `/api/licens%65s/${token}` });
    await s.app.inject({ method: 'GET', url: `/api/licenses/${token}?x=1` });
    await s.app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: basic('user', 'user') } });
    const logged = lines.join('');
    expect(logged).toContain('/api/dbs?tok%65n=[redacted]&x=1');
    expect(logged).toContain('/api/licenses/[redacted]');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(basic('user', 'user').slice(6));
  });

  it('masks by the decoded name, and leaves other parameters as they were', () => {
    expect(redactUrl('/api/dbs?token=SECRET&x=1')).toBe('/api/dbs?token=[redacted]&x=1');
    expect(redactUrl('/api/dbs?a=1&tOkEn=SECRET')).toBe('/api/dbs?a=1&tOkEn=[redacted]');
    expect(redactUrl('/api/dbs?to%6Ben=SECRET&tok%2=keep')).toBe('/api/dbs?to%6Ben=[redacted]&tok%2=keep');
    expect(redactUrl('/api/dbs?pass%77ord=pw&current%50assword=old')).toBe('/api/dbs?pass%77ord=[redacted]&current%50assword=[redacted]');
    expect(redactUrl('/api/licen%73es/SECRET?validate=true')).toBe('/api/licenses/[redacted]?validate=true');
    expect(redactUrl('/api/dbs/1/searches?Page=2&RecordsPerPage=25')).toBe('/api/dbs/1/searches?Page=2&RecordsPerPage=25');
  });
});

describe('answers that carry a token', () => {
  it('are not stored by any cache (Cache-Control: no-store)', async () => {
    const signedIn = await s.app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: basic('user', 'user') } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toHaveProperty('Token');
    expect(signedIn.headers['cache-control']).toBe('no-store');
    for (const url of [`/api/licenses?token=${token}`, `/api/licenses/${token}`]) {
      const r = await s.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.json(), url).toMatchObject({ Token: token });
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });
});
