/**
 * The reference archive server: Fastify with the API under /api, the built app at /, storage in
 * PGlite (`${dataDir}/pg`, or in memory) or PostgreSQL (databaseUrl), files in `${dataDir}/files`.
 * Every /api call except sign-in and licence checks needs a valid licence token; the hooks below
 * check it once, refuse writes for read-only licences once, and deduplicate Idempotency-Keys once.
 */
import '../src/fields/regex-engine';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { authenticate, hashToken, type LicenceClock } from './auth/licences.js';
import { SignInLimiter } from './auth/sign-in-limiter.js';
import { isMemoryDir, openStore } from './db/open.js';
import type { Store } from './db/store.js';
import { FileStore } from './files/file-store.js';
import { requestToken, type ServerContext } from './http/context.js';
import { Errors, installErrorHandler } from './http/errors.js';
import { installIdempotency, purgeIdempotencyKeys } from './http/idempotency.js';
import { installJsonBodyParser } from './http/json-body.js';
import { loggerOptions, type LogDestination } from './http/log-redaction.js';
import { CatalogueVersion, installCatalogueVersion } from './services/catalogue-version.js';
import { installTextGuard } from './http/text-guard.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { DEFAULT_JOB_LEASE_MS, JobRunner } from './jobs/runner.js';
import { adminRoutes } from './routes/admin.js';
import { adminArchiveRoutes } from './routes/admin-console/archives.js';
import { adminDatabaseRoutes } from './routes/admin-console/databases.js';
import { adminAdvancedLinkRoutes } from './routes/admin-advanced-links.js';
import { adminDxcRoutes } from './routes/admin-console/dxc.js';
import { adminSearchRoutes } from './routes/admin-console/searches.js';
import { catalogueRoutes } from './routes/admin-console/catalogue.js';
import { advancedLinkRoutes } from './routes/advanced-links.js';
import { annotationRoutes } from './routes/annotations.js';
import { documentIndexRoutes } from './routes/document-index.js';
import { archiveRoutes } from './routes/archives.js';
import { databaseRoutes } from './routes/databases.js';
import { documentEmailRoutes } from './routes/document-email.js';
import { documentFileRoutes } from './routes/document-file.js';
import { documentOperationRoutes } from './routes/document-operations.js';
import { bulkUpdateRoutes } from './routes/bulk-update.js';
import { burstRoutes } from './routes/burst.js';
import { importRoutes } from './routes/import.js';
import { exportRoutes } from './routes/export.js';
import { documentRoutes } from './routes/documents.js';
import { fieldDataRoutes } from './routes/field-data.js';
import { indexesValidateRoutes } from './routes/indexes-validate.js';
import { jobRoutes } from './routes/jobs.js';
import { licenceRoutes } from './routes/licences.js';
import { inboxRoutes } from './routes/inboxes.js';
import { mergeRoutes } from './routes/merge.js';
import { searchRoutes } from './routes/searches.js';
import { staticRoutes } from './routes/static.js';
import { uploadRoutes } from './routes/upload.js';
import { userRoutes } from './routes/users.js';
import { viewerSessionRoutes } from './routes/viewer-session.js';
import { isDatabaseEmpty, seed } from './seed/seed.js';
import { EmailService, type EmailOptions } from './services/email.js';
import { openExportFolder, purgeExports } from './services/export.js';
import { purgeBulkRows } from './services/bulk-update.js';
import { purgeJobs, releaseAllJobs } from './services/jobs.js';
import { purgeUploads, uploadLimitsFrom, type UploadLimits } from './services/upload.js';
import { Thumbnailer } from './thumbs/thumbnailer.js';
import { configureSharp } from './files/page-budget.js';
import { Recognizer } from './ocr/recognizer.js';
import { wordsRoutes } from './routes/words.js';
import { PageWordsService } from './services/words.js';
import { foldDocCounts } from './search/doc-counts.js';
import { fillTerms } from './search/terms-fill.js';

export interface BuildOptions {
  dataDir?: string;
  databaseUrl?: string;
  distDir?: string;
  languagesDir?: string;
  now?: () => number;
  /** Upload limits over the environment's (UPLOAD_MAX_BYTES, UPLOAD_USER_STAGED_BYTES; services/upload.ts). */
  uploads?: Partial<UploadLimits>;
  /** Log to stdout (true), or to `destination` at `level` (tests read what would be logged). */
  logger?: boolean | { destination: LogDestination; level?: string };
  seed?: { docs?: number } | false;
  /** Failed sign-ins per IP and user name per minute before 429 (default 10, env SIGNIN_LIMIT_PER_MINUTE). */
  signInLimitPerMinute?: number;
  /** Overrides every licence rule's MaxTimeLastAccessed (default env LEASE_SECONDS). */
  leaseSeconds?: number;
  /**
   * The job runner (server/jobs/runner.ts): run: false builds a server that takes calls but works no
   * job (tests drive runners themselves); leaseMs: how long a claimed job stays a process's without
   * its heartbeat (default env JOB_LEASE_SECONDS, else 15 s); pollMs: idle poll (250 ms).
   */
  jobs?: { run?: boolean; leaseMs?: number; pollMs?: number };
  /**
   * E-mail of documents (services/email.ts): settings (default from SMTP_* in the environment; null:
   * not set up) and the mail transport (default nodemailer over SMTP; tests pass their own).
   */
  email?: EmailOptions;
  /** Key-free extraction's OCR language data folder (eng.traineddata.gz); default the @tesseract.js-data/eng package's; null: none (DATA_EXTRACTION_NOT_REGISTERED). */
  ocrLangPath?: string | null;
  /**
   * An in-memory server (dataDir memory://) starts from this database (Store.snapshot()) and these
   * files (a FileStore's root folder, copied) instead of an empty one: tests start from a seeded
   * snapshot made once (tests/server/helpers.ts) rather than seeding again in each file.
   */
  snapshot?: { database: Uint8Array; filesDir: string };
  /** Told what a start is doing while it takes long (opening the storage, seeding a demo): `npm start` prints it. */
  progress?: (line: string) => void;
}

export interface BuiltServer {
  app: FastifyInstance;
  store: Store;
  files: FileStore;
  /** This process's job runner (started unless jobs.run is false). */
  jobs: JobRunner;
  /** Where finished exports are kept (services/export.ts). */
  exportDir: string;
  close(): Promise<void>;
}

export const DEFAULT_SEED_DOCS = 300;

function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function buildServer(opts: BuildOptions = {}): Promise<BuiltServer> {
  const now = opts.now ?? Date.now;
  configureSharp();
  const envLease = Number(process.env.LEASE_SECONDS);
  const clock: LicenceClock = { now, leaseSeconds: opts.leaseSeconds ?? (envLease > 0 ? envLease : undefined) };
  const snapshot = opts.snapshot && !opts.databaseUrl && isMemoryDir(opts.dataDir) ? opts.snapshot : undefined;
  opts.progress?.('Opening the storage (the first start creates the database: several seconds)...');
  const store = await openStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, snapshot: snapshot?.database });
  const files = FileStore.open(opts.dataDir, snapshot?.filesDir);
  // Export results (services/export.ts): `${dataDir}/exports`, or a temporary folder for memory://.
  const exportFolder = openExportFolder(opts.dataDir);
  try {
    if (opts.seed !== false && (await isDatabaseEmpty(store))) {
      const docs = opts.seed?.docs ?? DEFAULT_SEED_DOCS;
      opts.progress?.(`First start: seeding a demo archive of ${docs} documents with their PDF and TIFF files...`);
      const seeded = await seed(store, files, { docs, now });
      opts.progress?.(`Demo archive seeded in ${(seeded.ms / 1000).toFixed(1)} s.`);
    }
  } catch (e) {
    await store.close();
    files.close();
    exportFolder.close();
    throw e;
  }

  const app = Fastify({
    // Tokens and passwords never reach the log (http/log-redaction.ts).
    logger: opts.logger ? loggerOptions(opts.logger === true ? undefined : opts.logger.destination, opts.logger === true ? undefined : opts.logger.level) : false,
    bodyLimit: 4 * 1024 * 1024,
  });
  const ctx: ServerContext = { store, files, clock, version: readVersion() };
  const envLimit = Number(process.env.SIGNIN_LIMIT_PER_MINUTE);
  const limiter = new SignInLimiter(opts.signInLimitPerMinute ?? (envLimit > 0 ? envLimit : 10), now);

  installErrorHandler(app);
  installJsonBodyParser(app);
  const distDir = opts.distDir ?? 'dist';
  installSecurityHeaders(app, { distDir });
  // API answers (and files without a pre-compressed copy) over 1 KB, brotli or gzip as the client
  // accepts; the built app's files go out pre-compressed (routes/static.ts), which this skips.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024 });

  // Authentication: every /api route unless it says config.auth = 'none'.
  app.addHook('onRequest', async (request) => {
    const url = request.url;
    if (!(url === '/api' || url.startsWith('/api/') || url.startsWith('/api?'))) return;
    const cfg = request.routeOptions.config;
    // Unknown /api paths are authenticated too (then the not-found handler answers 404), so that
    // no path, known or not, answers a request without a valid licence, and the read-only rule
    // below holds before routing.
    const mode = cfg?.auth ?? 'token';
    if (mode === 'none') return;
    let token = requestToken(request);
    if (!token && mode === 'path-token') token = (request.params as { token?: string }).token;
    request.auth = await authenticate(store, clock, token);
  });

  // Web-only read-only licences (type 4) may not change anything. Exceptions: releasing one's own
  // licence (logout), changing one's own password and cancelling one's own job.
  app.addHook('onRequest', async (request) => {
    const auth = request.auth;
    if (!auth || auth.licenceType !== 4 || SAFE_METHODS.has(request.method)) return;
    const route = request.routeOptions.url;
    if (request.method === 'DELETE' && route === '/api/licenses/:token') {
      const t = (request.params as { token?: string }).token;
      if (t && hashToken(t) === auth.tokenHash) return;
    }
    // Cancelling one's own job changes no document (routes/jobs.ts answers 404 for anyone else's).
    if (request.method === 'DELETE' && route === '/api/jobs/:id') return;
    // Nor does an export (the user-app spec §6 bars this licence from the Excel export only, which
    // services/export-request.ts refuses).
    if (request.method === 'POST' && route === '/api/dbs/:db/export') return;
    // Nor opening the viewer: a viewer session only records which documents the user is paging through.
    if (request.method === 'POST' && route === '/api/session') return;
    // Nor the zip of inbox files (routes/inbox-changes.ts; its other POSTs are refused there too).
    if (request.method === 'POST' && route === '/api/inboxes/:id' && (request.query as Record<string, unknown> | undefined)?.export === 'true') return;
    if (request.method === 'POST' && route === '/api/users') {
      const q = request.query as Record<string, unknown>;
      if (String(q.isSelfPasswordChange ?? '').toLowerCase() === 'true') return;
    }
    throw Errors.readOnly();
  });

  installTextGuard(app);
  installCatalogueVersion(app, new CatalogueVersion(store, now));
  const bootId = randomUUID();
  installIdempotency(app, store, now, bootId);
  const envJobLease = Number(process.env.JOB_LEASE_SECONDS);
  const jobs = new JobRunner({
    store,
    now,
    bootId,
    leaseMs: opts.jobs?.leaseMs ?? (envJobLease > 0 ? envJobLease * 1000 : DEFAULT_JOB_LEASE_MS),
    pollMs: opts.jobs?.pollMs,
    log: (msg, err) => app.log.error({ err }, msg),
    exports: { files, dir: exportFolder.dir },
  });

  licenceRoutes(app, ctx, limiter);
  databaseRoutes(app, ctx);
  adminRoutes(app, ctx);
  adminDatabaseRoutes(app, ctx);
  adminArchiveRoutes(app, ctx, jobs);
  adminSearchRoutes(app, ctx);
  adminDxcRoutes(app, ctx);
  adminAdvancedLinkRoutes(app, ctx);
  catalogueRoutes(app, ctx);
  userRoutes(app, ctx, limiter);
  searchRoutes(app, ctx);
  archiveRoutes(app, ctx);
  indexesValidateRoutes(app, ctx);
  const thumbs = new Thumbnailer(files);
  documentRoutes(app, ctx, thumbs);
  burstRoutes(app, ctx, thumbs);
  const recognizer = new Recognizer(opts.ocrLangPath);
  wordsRoutes(app, ctx, new PageWordsService(store, thumbs, recognizer));
  fieldDataRoutes(app, ctx);
  documentOperationRoutes(app, ctx, jobs);
  documentEmailRoutes(app, ctx, new EmailService(files, opts.email));
  documentFileRoutes(app, ctx);
  viewerSessionRoutes(app, ctx);
  annotationRoutes(app, ctx);
  advancedLinkRoutes(app, ctx);
  documentIndexRoutes(app, ctx);
  jobRoutes(app, ctx);
  mergeRoutes(app, ctx);
  exportRoutes(app, ctx, jobs, exportFolder.dir);
  bulkUpdateRoutes(app, ctx, jobs);
  importRoutes(app, ctx, jobs);
  inboxRoutes(app, ctx, thumbs);
  uploadRoutes(app, ctx, uploadLimitsFrom(process.env, opts.uploads));
  await staticRoutes(app, { distDir, languagesDir: opts.languagesDir ?? join(distDir, 'languages') });

  const purge = async () => {
    await purgeIdempotencyKeys(store, now()).catch(() => 0);
    await purgeJobs(store, now()).catch(() => 0);
    await purgeExports(store, exportFolder.dir, now()).catch(() => 0);
    await purgeBulkRows(store, now()).catch(() => 0);
    await purgeUploads(store, files, now()).catch(() => 0);
    await foldDocCounts(store).catch(() => undefined);
  };
  await purge();
  const purgeTimer = setInterval(() => void purge(), 3_600_000);
  purgeTimer.unref();

  // Only this process ever opens an embedded store's data folder: a job another process held was
  // left by a crash, and is free at once rather than when its lease lapses.
  if (store.kind === 'pglite') await releaseAllJobs(store);
  // The runner stops (its current document done, its jobs let go) before the store closes.
  app.addHook('onClose', async () => {
    await jobs.stop();
  });
  if (opts.jobs?.run !== false) jobs.start();

  let closed = false;
  // Documents from before migration 018 get their content-search words in the background.
  const filling = fillTerms(store, () => closed).catch((e: unknown) => app.log.error({ err: e }, 'filling the content-search words failed'));
  return {
    app,
    store,
    files,
    jobs,
    exportDir: exportFolder.dir,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(purgeTimer);
      await filling;
      await app.close();
      await thumbs.close();
      await recognizer.close();
      await store.close();
      files.close();
      exportFolder.close();
    },
  };
}
