import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { Licence, LicenceValidation } from '../../src/api/licences';
import { LAST_USED_RESOLUTION_MS, hashToken } from '../../server/auth/licences';
import { basic, signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers });
const MIN = 60_000;

describe('GET /api/licenses (sign-in)', () => {
  it('answers {Token, Type} for good credentials', async () => {
    const r = await get('/api/licenses', { authorization: basic('admin', 'admin') });
    expect(r.statusCode).toBe(200);
    const lic = Licence.parse(r.json());
    expect(lic.Type).toBe(1);
    expect(Buffer.from(lic.Token, 'base64url')).toHaveLength(32);
    const viewer = Licence.parse((await get('/api/licenses', { authorization: basic('viewer', 'viewer') })).json());
    expect(viewer.Type).toBe(4);
  });

  it('user names are case-insensitive, passwords are not', async () => {
    expect((await get('/api/licenses', { authorization: basic('ADMIN', 'admin') })).statusCode).toBe(200);
    expect((await get('/api/licenses', { authorization: basic('admin', 'ADMIN') })).statusCode).toBe(401);
  });

  it.each([
    ['wrong password', { authorization: basic('user', 'nope') }],
    ['unknown user', { authorization: basic('nobody', 'x') }],
    ['no credentials', {} as Record<string, string>],
    ['malformed Basic', { authorization: 'Basic !!!notbase64' }],
    ['empty user', { authorization: basic('', 'x') }],
    ['other scheme', { authorization: 'Bearer abc' }],
  ])('%s -> 401 ERROR_INVALID_CREDENTIALS', async (_name, headers) => {
    const r = await get('/api/licenses', headers);
    expect(r.statusCode).toBe(401);
    expect(ErrorBody.parse(r.json())).toEqual({ Message: 'Invalid user name or password', Key: 'ERROR_INVALID_CREDENTIALS' });
  });

  it('stores only a hash of the token', async () => {
    const token = await signIn(s, 'user');
    const rows = (await s.store.query<Record<string, unknown>>('SELECT * FROM licences')).rows;
    expect(JSON.stringify(rows)).not.toContain(token);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(rows.some((r) => r.token_hash === hash)).toBe(true);
  });

  it('never stores passwords in plain text', async () => {
    const rows = (await s.store.query<{ name: string; password_hash: string }>('SELECT name, password_hash FROM users')).rows;
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r.password_hash).toMatch(/^scrypt\$/);
      expect(r.password_hash).not.toContain(r.name);
    }
  });
});

describe('token checks', () => {
  it('missing, unknown or released token -> 401 LicenseExpired', async () => {
    const expected = { Message: 'LicenseExpired', Key: 'LicenseExpired' };
    const missing = await get('/api/dbs');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual(expected);
    const unknown = await get('/api/dbs?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(expected);
    const token = await signIn(s, 'user');
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${token}` })).statusCode).toBe(204);
    const released = await get(`/api/dbs?token=${token}`);
    expect(released.statusCode).toBe(401);
    expect(released.json()).toEqual(expected);
  });

  it('accepts the token as token, Token or Auth-Token', async () => {
    const token = await signIn(s, 'user');
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    expect((await get(`/api/dbs?Token=${token}`)).statusCode).toBe(200);
    expect((await get('/api/dbs', { 'auth-token': token })).statusCode).toBe(200);
  });

  it('idle longer than the lease -> 402 Lease expired, and the licence is released', async () => {
    const token = await signIn(s, 'user');
    s.clock.advance(14 * MIN);
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200); // use restarts the lease
    s.clock.advance(14 * MIN);
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    s.clock.advance(15 * MIN + 1);
    const r = await get(`/api/dbs?token=${token}`);
    expect(r.statusCode).toBe(402);
    expect(r.json()).toEqual({ Message: 'Lease expired' });
    // Released (its seat is free), and every later call with it still says why.
    const row = await s.store.query<{ released_at: Date | null; release_reason: string }>('SELECT released_at, release_reason FROM licences WHERE token_hash = $1', [hashToken(token)]);
    expect(row.rows[0]?.released_at).not.toBeNull();
    expect(row.rows[0]?.release_reason).toBe('lease');
    const again = await get(`/api/dbs?token=${token}`);
    expect(again.statusCode).toBe(402);
    expect(again.json()).toEqual({ Message: 'Lease expired' });
    expect(LicenceValidation.parse((await get(`/api/licenses?validate=true&token=${token}`)).json())).toEqual({ Valid: false, Reason: 'lease' });
  });

  it('a use within a second of the recorded one is not written again (an upload sends hundreds a minute); a later one is', async () => {
    const token = await signIn(s, 'user');
    const lastUsed = async () => (await s.store.query<{ last_used_at: Date }>('SELECT last_used_at FROM licences WHERE token_hash = $1', [hashToken(token)])).rows[0]!.last_used_at.getTime();
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    const first = await lastUsed();
    s.clock.advance(LAST_USED_RESOLUTION_MS - 1);
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);
    s.clock.advance(1);
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first + LAST_USED_RESOLUTION_MS);
  });

  it('older than MaxTime -> 499 License Expired', async () => {
    const token = await signIn(s, 'user');
    for (let i = 0; i < 47; i++) {
      s.clock.advance(10 * MIN);
      expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(200);
    }
    s.clock.advance(20 * MIN); // 8 h 10 min after sign-in: MaxTime is checked before the lease
    const r = await get(`/api/dbs?token=${token}`);
    expect(r.statusCode).toBe(499);
    expect(r.json()).toEqual({ Message: 'License Expired' });
    expect((await get(`/api/dbs?token=${token}`)).statusCode).toBe(499);
    expect(LicenceValidation.parse((await get(`/api/licenses?validate=true&token=${token}`)).json())).toEqual({ Valid: false, Reason: 'max-time' });
  });

  it('validate=true and authorize answer LicenceValidation without counting as a use', async () => {
    const token = await signIn(s, 'user');
    const v = LicenceValidation.parse((await get(`/api/licenses?validate=true&token=${token}`)).json());
    expect(v).toMatchObject({ Valid: true, Type: 1, Restricted: false });
    expect(new Date(v.LeaseEnds as string).getTime()).toBe(s.clock.t + 15 * MIN);
    const a = LicenceValidation.parse((await get('/api/authorize', { 'auth-token': token })).json());
    expect(a.Valid).toBe(true);
    s.clock.advance(10 * MIN);
    await get(`/api/authorize?token=${token}`);
    s.clock.advance(6 * MIN);
    expect(LicenceValidation.parse((await get(`/api/authorize?token=${token}`)).json()).Valid).toBe(false);
    expect(LicenceValidation.parse((await get('/api/authorize')).json()).Valid).toBe(false);
    expect(LicenceValidation.parse((await get('/api/licenses?validate=true&token=garbage')).json()).Valid).toBe(false);
  });

  it('rejects a bad validate value', async () => {
    const r = await get('/api/licenses?validate=maybe');
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });
});

describe('GET / DELETE /api/licenses/{token}', () => {
  it('returns and releases one\'s own licence', async () => {
    const token = await signIn(s, 'user');
    const r = await get(`/api/licenses/${token}`);
    expect(r.statusCode).toBe(200);
    expect(Licence.parse(r.json())).toEqual({ Token: token, Type: 1 });
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${token}` })).statusCode).toBe(204);
    expect((await get(`/api/licenses/${token}`)).statusCode).toBe(401);
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${token}` })).statusCode).toBe(401);
  });

  it('refuses another user\'s licence unless admin-all', async () => {
    const mine = await signIn(s, 'user');
    const other = await signIn(s, 'kiosk');
    const r = await get(`/api/licenses/${other}?token=${mine}`);
    expect(r.statusCode).toBe(403);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${other}`, headers: { 'auth-token': mine } })).statusCode).toBe(403);
    const admin = await signIn(s, 'admin');
    expect((await get(`/api/licenses/${other}?token=${admin}`)).json()).toEqual({ Token: other, Type: 1 });
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${other}?token=${admin}` })).statusCode).toBe(204);
    expect((await get(`/api/dbs?token=${other}`)).statusCode).toBe(401);
    expect((await get(`/api/licenses/nonexistent-token-value?token=${admin}`)).statusCode).toBe(404);
  });
});

describe('seats', () => {
  it('kiosk has one seat: a second sign-in answers 409 All licenses are in use', async () => {
    // Free anything an earlier test left.
    await s.store.query("UPDATE licences SET released_at = now() WHERE user_id = 4 AND released_at IS NULL");
    const first = await signIn(s, 'kiosk');
    const r = await get('/api/licenses', { authorization: basic('kiosk', 'kiosk') });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ Message: 'All licenses are in use', Key: 'ERROR_CANT_OBTAIN_LICENSE' });
    // The held licence still works.
    expect((await get(`/api/dbs?token=${first}`)).statusCode).toBe(200);
    // Releasing it frees the seat.
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${first}` })).statusCode).toBe(204);
    const second = await signIn(s, 'kiosk');
    // An idle licence stops holding the seat once its lease is over.
    s.clock.advance(16 * MIN);
    const third = await signIn(s, 'kiosk');
    expect(third).not.toBe(second);
    // The one that lost its seat to the lease says so (402), like one whose lease ran out in use.
    expect((await get(`/api/dbs?token=${second}`)).statusCode).toBe(402);
    await s.app.inject({ method: 'DELETE', url: `/api/licenses/${third}` });
  });
});

describe('sign-in rate limit', () => {
  it('refuses with 429 after 10 failures per IP and user, then recovers', async () => {
    for (let i = 0; i < 10; i++) expect((await get('/api/licenses', { authorization: basic('viewer', 'wrong') })).statusCode).toBe(401);
    const r = await get('/api/licenses', { authorization: basic('viewer', 'viewer') });
    expect(r.statusCode).toBe(429);
    expect(ErrorBody.parse(r.json()).Message).toMatch(/Too many/);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // Other users from the same address are not affected.
    expect((await get('/api/licenses', { authorization: basic('user', 'user') })).statusCode).toBe(200);
    s.clock.advance(61_000);
    expect((await get('/api/licenses', { authorization: basic('viewer', 'viewer') })).statusCode).toBe(200);
  });
});
