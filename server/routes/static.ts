/**
 * The built app (distDir) at `/`, with SPA fallback to index.html for paths that are not files and
 * not under /api; index.html and service-worker.js are never cached without revalidation, hashed
 * assets (assets/*) are cached for a year. Language files at /languages/{code}.json.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy beside each text file (vite.config.ts
 * precompress): @fastify/static sends the one the request's Accept-Encoding allows, with its own
 * Content-Length and Vary: Accept-Encoding, so nothing is compressed per request.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.js';

const NO_CACHE = new Set(['index.html', 'service-worker.js', 'sw.js', 'manifest.webmanifest', 'config.json']);
export const NOT_BUILT_TEXT = 'The web app is not built yet. Run `npm run build`, then restart the server.\n';

function cacheControlFor(path: string): string {
  // The file sent may be the pre-compressed copy (index.html.br): its rule is the original's.
  const base = (path.split(/[\\/]/).pop() ?? '').replace(/\.(br|gz)$/, '');
  if (NO_CACHE.has(base)) return 'no-cache';
  if (/[\\/]assets[\\/]/.test(path)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

function isApi(url: string) {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

export async function staticRoutes(app: FastifyInstance, opts: { distDir: string; languagesDir: string }) {
  const distDir = resolve(opts.distDir);
  const languagesDir = resolve(opts.languagesDir);
  const built = existsSync(join(distDir, 'index.html')) && statSync(distDir).isDirectory();

  app.get('/languages/:file', { config: { auth: 'none' } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?\.json$/.test(file)) return sendError(reply, 404, { Message: 'Language not found', Key: 'ERROR_NOT_FOUND' });
    try {
      const text = await readFile(join(languagesDir, file), 'utf8');
      return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(text);
    } catch {
      return sendError(reply, 404, { Message: 'Language not found', Key: 'ERROR_NOT_FOUND' });
    }
  });

  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: ['index.html'],
      preCompressed: true,
      setHeaders: (reply, path) => void reply.header('Cache-Control', cacheControlFor(path)),
      cacheControl: false,
    });
  } else {
    app.get('/', { config: { auth: 'none' } }, async (_request, reply) => reply.type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT));
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApi(path)) return sendError(reply, 404, { Message: `No such API call: ${request.method} ${path}`, Key: 'ERROR_NOT_FOUND' });
    const last = path.split('/').pop() ?? '';
    const looksLikeFile = last.includes('.');
    if ((request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile) {
      if (!built) return reply.code(200).type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT);
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', distDir, { cacheControl: false });
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
  });
}
