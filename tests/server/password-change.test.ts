/**
 * POST /api/users?isSelfPasswordChange=true (issue 8 item 16): the current password is asked for,
 * the new one follows the rule, and the user's other sessions end while the one that made the
 * change stays signed in. Each test changes the password of a seeded user no other test here signs
 * in as afterwards (the seeded passwords are shorter than the default rule allows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { redactUrl } from '../../server/http/log-redaction';
import { basic, signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ signInLimitPerMinute: 10 });
});
afterAll(async () => {
  await s?.close();
});

const change = (token: string, body: unknown, opts: { raw?: string; query?: string } = {}) =>
  s.app.inject({
    method: 'POST',
    url: `/api/users?${opts.query ?? 'isSelfPasswordChange=true'}&token=${token}`,
    headers: { 'content-type': 'application/json' },
    payload: opts.raw ?? JSON.stringify(body),
  });
const dbs = (token: string) => s.app.inject({ method: 'GET', url: `/api/dbs?token=${token}` });
const licence = (user: string, password: string) => s.app.inject({ method: 'GET', url: '/api/licenses', headers: { authorization: basic(user, password) } });

describe('the current password', () => {
  it.each([
    ['wrong', { Password: 'secret-42', CurrentPassword: 'not-it' }],
    ['missing', { Password: 'secret-42' }],
    ['blank', { Password: 'secret-42', CurrentPassword: '' }],
  ])('%s -> 400 CURRENT_PASSWORD_WRONG, nothing changes, no session ends', async (_n, body) => {
    const mine = await signIn(s, 'admin');
    const other = await signIn(s, 'admin');
    const r = await change(mine, body);
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json())).toEqual({ Message: 'The current password is not correct', Key: 'CURRENT_PASSWORD_WRONG' });
    expect((await licence('admin', 'admin')).statusCode).toBe(200);
    expect((await licence('admin', 'secret-42')).statusCode).toBe(401);
    expect((await dbs(other)).statusCode).toBe(200);
    expect((await dbs(mine)).statusCode).toBe(200);
  });

  it('wrong ones count against the sign-in budget: too many -> 429, even with the right one', async () => {
    const token = await signIn(s, 'kiosk');
    for (let i = 0; i < 10; i++) expect((await change(token, { Password: 'abcdefg', CurrentPassword: `guess-${i}` })).statusCode).toBe(400);
    const r = await change(token, { Password: 'abcdefg', CurrentPassword: 'kiosk' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBeDefined();
    s.clock.advance(61_000);
    expect((await change(token, { Password: 'kiosk-2', CurrentPassword: 'kiosk' })).statusCode).toBe(200);
  });
});

describe('a change', () => {
  it('stores the new password hashed; the old one no longer signs in', async () => {
    const token = await signIn(s, 'user');
    const r = await change(token, { Password: 'secret-42', CurrentPassword: 'user' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ Message: 'PASSWORD_UPDATED' });
    const row = (await s.store.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE name = 'user'")).rows[0];
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    expect(row?.password_hash).not.toContain('secret-42');
    expect((await licence('user', 'user')).statusCode).toBe(401);
    expect((await licence('user', 'secret-42')).statusCode).toBe(200);
  });

  it("ends the user's other sessions (401) and keeps the one that made it; other users' sessions stay", async () => {
    const mine = await signIn(s, 'viewer');
    const phone = await signIn(s, 'viewer');
    const tablet = await signIn(s, 'viewer');
    const someoneElse = await signIn(s, 'admin');
    const r = await change(mine, { Password: 'viewer-2', CurrentPassword: 'viewer' });
    expect(r.statusCode).toBe(200);
    for (const t of [phone, tablet]) {
      const d = await dbs(t);
      expect(d.statusCode).toBe(401);
      expect(d.json()).toEqual({ Message: 'LicenseExpired', Key: 'LicenseExpired' });
    }
    expect((await dbs(mine)).statusCode).toBe(200);
    expect((await dbs(someoneElse)).statusCode).toBe(200);
    const released = await s.store.query<{ n: number }>("SELECT count(*) AS n FROM licences l JOIN users u ON u.id = l.user_id WHERE u.name = 'viewer' AND l.release_reason = 'password-changed'");
    expect(released.rows[0]?.n).toBeGreaterThanOrEqual(2);
    // The seats of the ended sessions are free again: the user signs in with the new password.
    const again = await signIn(s, 'viewer', 'viewer-2');
    expect((await dbs(again)).statusCode).toBe(200);
  });
});

describe('the new password', () => {
  it.each([
    ['too short', { Password: 'abc' }],
    ['too long', { Password: 'x'.repeat(19) }],
    ['blank', { Password: '      ' }],
    ['missing', {}],
    ['wrong type', { Password: 123456 }],
  ])('%s -> 400 ERROR_PASSWORD_UPDATE, and other sessions stay', async (_n, body) => {
    const mine = await signIn(s, 'admin');
    const other = await signIn(s, 'admin');
    const r = await change(mine, { ...body, CurrentPassword: 'admin' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ Message: 'ERROR_PASSWORD_UPDATE', Key: 'ERROR_PASSWORD_UPDATE' });
    expect((await dbs(other)).statusCode).toBe(200);
  });

  it('malformed JSON -> 400 ErrorBody', async () => {
    const r = await change(await signIn(s, 'admin'), null, { raw: '{"Password": ' });
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });

  it('without isSelfPasswordChange -> 400', async () => {
    const r = await change(await signIn(s, 'admin'), { Password: 'abcdefg', CurrentPassword: 'admin' }, { query: 'x=1' });
    expect(r.statusCode).toBe(400);
  });
});

describe('the log', () => {
  it('never shows a password sent in the address', () => {
    const shown = redactUrl('/api/users?isSelfPasswordChange=true&currentPassword=old-one&password=new-one');
    expect(shown).not.toContain('old-one');
    expect(shown).not.toContain('new-one');
  });
});
