/**
 * Security headers on every answer of the server (the app's pages, its assets, the service worker,
 * the API, errors): a Content-Security-Policy, X-Content-Type-Options, X-Frame-Options and a
 * Referrer-Policy.
 *
 * The policy allows what the built app does and nothing more:
 * - scripts only from the app's origin (index.html has no inline script; the workers and the
 *   service worker are files of the build), no eval; WebAssembly may be compiled ('wasm-unsafe-eval',
 *   not 'unsafe-eval'): the device's OCR engine (workers/ocr.worker.ts, tesseract.js) is wasm;
 * - styles only from the app's origin too, without 'unsafe-inline': Handsontable 18 would inject its
 *   core stylesheet as a <style> element, but the grid is built with injectCoreCss: false and the
 *   theme's CSS file (results-grid.tsx); its one setAttribute('style') (core.mjs, a height set
 *   back to null) never runs, the grid's height being a function; React's style props and
 *   Handsontable's sizes are CSSOM writes, which a CSP does not govern. A browser test
 *   (e2e/content-security-policy.spec.ts) signs in, searches, opens the grid and edits under it;
 * - connections to the app's origin plus the origins the deployment names in config.json
 *   (apiBaseUrl, languageCdnUrl) and the local scanner helper on 127.0.0.1; images from the same
 *   origins, data: (icons in Handsontable's stylesheet) and blob:;
 * - no framing (frame-ancestors 'none', and X-Frame-Options for browsers without CSP 3), no
 *   plugins, no <base> or form posts elsewhere.
 * The Referrer-Policy is no-referrer: a licence token can travel in an address (/view?token=...)
 * and must not leak to another site through the Referer header.
 *
 * config.json is edited by a deployment without a rebuild, so it is read again when it changes.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

interface DeploymentOrigins {
  apiBaseUrl?: unknown;
  languageCdnUrl?: unknown;
  helperPort?: unknown;
  helperSslPort?: unknown;
  helperUseSsl?: unknown;
}

function originOf(url: unknown): string | null {
  if (typeof url !== 'string' || !url.trim()) return null;
  try {
    const u = new URL(url.replace(/\{code\}/g, 'en'));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function port(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536 ? value : fallback;
}

/** The policy for a deployment's config.json (defaults as in src/app/config.ts when absent). */
export function contentSecurityPolicy(config: DeploymentOrigins = {}): string {
  const api = originOf(config.apiBaseUrl);
  const cdn = originOf(config.languageCdnUrl);
  const helper =
    config.helperUseSsl === false ? `http://127.0.0.1:${port(config.helperPort, 9080)}` : `https://127.0.0.1:${port(config.helperSslPort, 9443)}`;
  const list = (...items: (string | null)[]) => [...new Set(items.filter((i): i is string => !!i))].join(' ');
  return [
    `default-src 'self'`,
    `script-src 'self' 'wasm-unsafe-eval'`,
    `style-src 'self'`,
    `img-src ${list("'self'", 'data:', 'blob:', api)}`,
    `font-src 'self' data:`,
    `connect-src ${list("'self'", api, cdn, helper)}`,
    `worker-src 'self'`,
    `manifest-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

export const STATIC_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

export function installSecurityHeaders(app: FastifyInstance, opts: { distDir: string }) {
  const configPath = join(opts.distDir, 'config.json');
  let cached: { mtimeMs: number; policy: string } | null = null;
  const policy = () => {
    let mtimeMs = -1;
    try {
      mtimeMs = statSync(configPath).mtimeMs;
    } catch {
      // No build (or no config.json): the defaults.
    }
    if (cached?.mtimeMs === mtimeMs) return cached.policy;
    let config: DeploymentOrigins = {};
    try {
      if (mtimeMs >= 0) config = JSON.parse(readFileSync(configPath, 'utf8')) as DeploymentOrigins;
    } catch {
      // A config.json the app cannot read either: the app falls back to its defaults, so does the policy.
    }
    cached = { mtimeMs, policy: contentSecurityPolicy(config) };
    return cached.policy;
  };
  // onRequest, not onSend: the headers are then on every answer, also those @fastify/static and the
  // error handler send, and a route may still replace one if it ever must.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers({ ...STATIC_SECURITY_HEADERS, 'content-security-policy': policy() });
  });
}
