/**
 * The console's server tests (admin-*.test.ts): one seeded server per file with admin, user and
 * viewer signed in, and a call as any of them (admin by default).
 */
import { afterAll, beforeAll } from 'vitest';
import { signIn, startServer, type TestServer } from './helpers';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export function adminTestServer(docs = 5) {
  const ctx = { s: undefined as unknown as TestServer, tokens: {} as Record<string, string> };
  beforeAll(async () => {
    ctx.s = await startServer({ seed: { docs } });
    for (const u of ['admin', 'user', 'viewer']) ctx.tokens[u] = await signIn(ctx.s, u);
    // Seeding takes seconds alone but a minute and more while the machine runs other suites.
  }, 180_000);
  afterAll(async () => {
    await ctx.s?.close();
  });
  const call = (method: Method, url: string, payload?: unknown, user = 'admin') =>
    ctx.s.app.inject({ method, url, headers: { 'auth-token': ctx.tokens[user] as string }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { ctx, call };
}
