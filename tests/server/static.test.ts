import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { redactUrl } from '../../server/app';
import { NOT_BUILT_TEXT } from '../../server/routes/static';
import { makeDist, startServer, type TestServer } from './helpers';

let s: TestServer;
let dist: ReturnType<typeof makeDist>;
beforeAll(async () => {
  dist = makeDist();
  s = await startServer({ distDir: dist.dir, seed: false });
});
afterAll(async () => {
  await s?.close();
  dist?.remove();
});

const get = (url: string) => s.app.inject({ method: 'GET', url });

describe('the built app', () => {
  it('serves index.html at / without long caching', async () => {
    const r = await get('/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<title>Archive</title>');
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/select', '/direct?op=1&db=1', '/view', '/results/abc123?Id=1', '/admin/full', '/viewer/abcd'])('SPA fallback for %s', async (url) => {
    const r = await get(url);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.body).toContain('<div id="root">');
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it('service-worker.js is no-cache; hashed assets are immutable', async () => {
    const sw = await get('/service-worker.js');
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    const asset = await get('/assets/index-3f9a1c.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a missing file is a 404, not the app', async () => {
    const r = await get('/assets/missing-123.js');
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('<div id="root">');
  });

  it('language files', async () => {
    const r = await get('/languages/en.json');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ MESSAGE_LOADING: 'Loading...' });
    expect((await get('/languages/xx.json')).statusCode).toBe(404);
    expect((await get('/languages/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
  });
});

describe('/api never answers with the app', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api/dbs/1/nothing'],
    ['POST', '/api/nothing-here'],
    ['DELETE', '/api/dbs'],
    ['GET', '/api'],
  ])('%s %s without a licence -> JSON 401, never the app', async (method, url) => {
    // Unknown API paths are authenticated like known ones: no licence, no answer about the path.
    const r = await s.app.inject({ method: method as 'GET', url });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(ErrorBody.parse(r.json()).Message).toBe('LicenseExpired');
  });
});

describe('without a build', () => {
  it('answers a short text saying to build', async () => {
    const bare = await startServer({ distDir: join(tmpdir(), 'does-not-exist-dist'), seed: false });
    try {
      const r = await bare.app.inject({ method: 'GET', url: '/' });
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe(NOT_BUILT_TEXT);
      expect((await bare.app.inject({ method: 'GET', url: '/api/zzz' })).statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });
});

describe('log redaction', () => {
  it('masks tokens and passwords in logged URLs', () => {
    expect(redactUrl('/api/dbs?token=SECRET&x=1')).toBe('/api/dbs?token=[redacted]&x=1');
    expect(redactUrl('/api/dbs?a=1&Token=SECRET')).toBe('/api/dbs?a=1&Token=[redacted]');
    expect(redactUrl('/api/licenses/SECRET?validate=true')).toBe('/api/licenses/[redacted]?validate=true');
    expect(redactUrl('/api/users?isSelfPasswordChange=true&password=pw')).not.toContain('pw');
  });
});
