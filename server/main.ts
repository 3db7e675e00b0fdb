/**
 * Starts the reference archive server: `npx tsx server/main.ts`.
 * Env: PORT (8080), HOST (127.0.0.1), DATA_DIR (./data), DATABASE_URL (PostgreSQL instead of the
 * embedded PGlite), DIST_DIR (./dist), LEASE_SECONDS, SEED_DOCS (documents seeded into an empty
 * database, default 300), LOG_LEVEL.
 */
import { buildServer, DEFAULT_SEED_DOCS } from './app.js';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = process.env.DATA_DIR ?? './data';
const seedDocs = Number(process.env.SEED_DOCS ?? DEFAULT_SEED_DOCS);

const t0 = Date.now();
console.log('Starting the archive server...');
const server = await buildServer({
  progress: (line) => console.log(line),
  dataDir,
  databaseUrl: process.env.DATABASE_URL || undefined,
  distDir: process.env.DIST_DIR ?? './dist',
  logger: true,
  seed: { docs: Number.isFinite(seedDocs) && seedDocs >= 0 ? seedDocs : DEFAULT_SEED_DOCS },
});
server.app.log.info(`storage ready in ${Date.now() - t0} ms (${server.store.kind}${server.store.kind === 'pglite' ? `, ${dataDir}` : ''})`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  server.app.log.info(`${signal}: closing`);
  await server.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

await server.app.listen({ port, host });
server.app.log.info(`archive server listening on http://${host}:${port}/`);
// What a person starting the demo needs to read, whatever the log level.
console.log(
  [
    `Archive is ready at http://${host}:${port}/ (storage: ${server.store.kind === 'pglite' ? `embedded PostgreSQL in ${dataDir}` : 'PostgreSQL from DATABASE_URL'}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    'Demo sign-ins: admin/admin (administrator), user/user (ordinary user), viewer/viewer (read-only licence), kiosk/kiosk (one-seat licence), clerk/clerk (may copy, not move or delete)',
  ].join('\n'),
);
