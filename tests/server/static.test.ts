import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { redactUrl } from '../../server/http/log-redaction';
import { NOT_BUILT_TEXT } from '../../server/routes/static';
import { makeDist, signIn, startServer, type TestServer } from './helpers';

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

// One seeded server (users, searches) for the tests that sign in, started by the first of them.
let seeded: Promise<TestServer> | undefined;
const seededServer = () => (seeded ??= startServer());
afterAll(async () => {
  await (await seeded)?.close();
});

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp).toContain("default-src 'self'");
  // No inline or eval'd script or style anywhere: scripts and stylesheets are files of the app's origin.
  // WebAssembly may be compiled (the device's OCR engine, tesseract.js), which is not eval of script.
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
  expect(csp).not.toMatch(/'unsafe-(inline|eval)'/);
  expect(csp).toContain("style-src 'self';");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('security headers', () => {
  it.each(['/', '/select', '/assets/index-3f9a1c.js', '/service-worker.js', '/languages/en.json', '/manifest.webmanifest', '/assets/missing-123.js', '/api/nothing-here', '/api/licenses'])(
    'on %s',
    async (url) => {
      const r = await get(url);
      expectSecurityHeaders(r.headers);
    },
  );

  it('on API answers of a signed-in user, also errors', async () => {
    const seeded = await seededServer();
    {
      const token = await signIn(seeded, 'admin');
      const ok = await seeded.app.inject({ method: 'GET', url: '/api/dbs', headers: { 'auth-token': token } });
      expect(ok.statusCode).toBe(200);
      expectSecurityHeaders(ok.headers);
      const bad = await seeded.app.inject({ method: 'POST', url: '/api/indexes', headers: { 'auth-token': token, 'content-type': 'application/json' }, payload: '{' });
      expect(bad.statusCode).toBe(400);
      expectSecurityHeaders(bad.headers);
    }
  });

  it("connect-src and img-src follow the deployment's config.json, read again when it changes", async () => {
    const d = makeDist();
    const configPath = join(d.dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ apiBaseUrl: 'https://api.example.com/archive', languageCdnUrl: 'https://cdn.example.net/lang/{code}.json', helperUseSsl: false, helperPort: 9999 }));
    const server = await startServer({ distDir: d.dir, seed: false });
    try {
      const csp = String((await server.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
      expect(csp).toMatch(/connect-src 'self' https:\/\/api\.example\.com https:\/\/cdn\.example\.net http:\/\/127\.0\.0\.1:9999;/);
      expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/api\.example\.com;/);
      writeFileSync(configPath, JSON.stringify({ apiBaseUrl: '' }));
      utimesSync(configPath, new Date(), new Date(Date.now() + 5000));
      const after = String((await server.app.inject({ method: 'GET', url: '/select' })).headers['content-security-policy']);
      expect(after).toContain("connect-src 'self' https://127.0.0.1:9443;");
      expect(after).not.toContain('example');
    } finally {
      await server.close();
      d.remove();
    }
  });
});

describe('compression', () => {
  // A hashed asset as the build leaves it: the file and its .br and .gz copies (vite.config.ts).
  const source = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
  const br = brotliCompressSync(source);
  const gz = gzipSync(source);
  beforeAll(() => {
    writeFileSync(join(dist.dir, 'assets', 'big-9b8c7d6e.js'), source);
    writeFileSync(join(dist.dir, 'assets', 'big-9b8c7d6e.js.br'), br);
    writeFileSync(join(dist.dir, 'assets', 'big-9b8c7d6e.js.gz'), gz);
  });
  const asset = (acceptEncoding?: string) =>
    s.app.inject({ method: 'GET', url: '/assets/big-9b8c7d6e.js', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the brotli copy when the browser accepts it, with its length, Vary and a year of caching', async () => {
    const r = await asset('gzip, deflate, br, zstd');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(Number(r.headers['content-length'])).toBe(br.length);
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(source);
    expectSecurityHeaders(r.headers);
  });

  it('the gzip copy for a gzip-only client, the file itself for none', async () => {
    const g = await asset('gzip');
    expect(g.headers['content-encoding']).toBe('gzip');
    expect(Number(g.headers['content-length'])).toBe(gz.length);
    expect(gunzipSync(g.rawPayload).toString()).toBe(source);
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(source));
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(source);
  });

  it('index.html, the service worker and config.json are not cached long, compressed or not', async () => {
    writeFileSync(join(dist.dir, 'service-worker.js.br'), brotliCompressSync('self.addEventListener("install", () => {});'));
    const sw = await s.app.inject({ method: 'GET', url: '/service-worker.js', headers: { 'accept-encoding': 'br' } });
    expect(sw.headers['content-encoding']).toBe('br');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const page = await s.app.inject({ method: 'GET', url: '/results/abc', headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const html = page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.rawPayload).toString() : page.body;
    expect(html).toContain('<div id="root">');
    writeFileSync(join(dist.dir, 'config.json'), '{"apiBaseUrl":""}');
    expect((await get('/config.json')).headers['cache-control']).toBe('no-cache');
  });

  it('compresses API answers over 1 KB, not small ones', async () => {
    const seeded = await seededServer();
    {
      const token = await signIn(seeded, 'admin');
      const big = await seeded.app.inject({ method: 'GET', url: '/api/dbs/1/searches', headers: { 'auth-token': token, 'accept-encoding': 'gzip' } });
      expect(big.statusCode).toBe(200);
      const plain = await seeded.app.inject({ method: 'GET', url: '/api/dbs/1/searches', headers: { 'auth-token': token } });
      expect(plain.rawPayload.length).toBeGreaterThan(1024);
      expect(big.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toEqual(plain.json());
      const brotli = await seeded.app.inject({ method: 'GET', url: '/api/dbs/1/searches', headers: { 'auth-token': token, 'accept-encoding': 'br' } });
      expect(brotli.headers['content-encoding']).toBe('br');
      const small = await seeded.app.inject({ method: 'GET', url: '/api/dbs', headers: { 'auth-token': token, 'accept-encoding': 'gzip' } });
      expect(small.rawPayload.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();
    }
  });
});
