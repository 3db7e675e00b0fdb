/**
 * Issue 8 item 15: the sign-in limiter also limits one address across user names (password spraying),
 * while one user's failures do not lock out the others, and a different address is not affected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/errors';
import { addressKey } from '../../server/auth/sign-in-limiter';
import { basic, startServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ seed: { docs: 5 } });
});
afterAll(async () => {
  await s?.close();
});
// Every test starts with fresh windows.
beforeEach(() => s.clock.advance(61_000));

const signIn = (user: string, password: string, remoteAddress: string) =>
  s.app.inject({ method: 'GET', url: '/api/licenses', remoteAddress, headers: { authorization: basic(user, password) } });

async function release(r: { json(): unknown }) {
  const { Token } = r.json() as { Token: string };
  await s.app.inject({ method: 'DELETE', url: `/api/licenses/${Token}` });
}

function expectLimited(r: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(r.statusCode).toBe(429);
  const body = ErrorBody.parse(r.json());
  expect(body.Key).toBe('ERROR_TOO_MANY_ATTEMPTS');
  expect(body.Message).toMatch(/Too many failed sign-in attempts/);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
}

describe('sign-in limit per address', () => {
  it('twelve user names with wrong passwords from one address are limited; another address still signs in', async () => {
    const spray = '203.0.113.7';
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await signIn(`guess${i}`, 'Winter2026!', spray)).statusCode);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(answers.slice(10)).toEqual([429, 429]);
    expectLimited(await signIn('guess12', 'Winter2026!', spray));
    // The address is refused for every name, a right password included, until its minute ends...
    expectLimited(await signIn('user', 'user', spray));
    // ...while a correct sign-in from another address works.
    const other = await signIn('user', 'user', '198.51.100.9');
    expect(other.statusCode, other.body).toBe(200);
    await release(other);
    s.clock.advance(61_000);
    const later = await signIn('user', 'user', spray);
    expect(later.statusCode, later.body).toBe(200);
    await release(later);
  });

  it('one user mistyping does not lock out the other users of the address', async () => {
    const office = '192.0.2.50';
    for (let i = 0; i < 10; i++) expect((await signIn('viewer', 'wrong', office)).statusCode).toBe(401);
    expectLimited(await signIn('viewer', 'viewer', office));
    const r = await signIn('user', 'user', office);
    expect(r.statusCode, r.body).toBe(200);
    await release(r);
  });

  it('30 failures in all from one address are limited, even over few user names', async () => {
    const addr = '192.0.2.77';
    for (const name of ['a1', 'a2', 'a3']) for (let i = 0; i < 10; i++) expect((await signIn(name, 'x', addr)).statusCode).toBe(401);
    expectLimited(await signIn('user', 'user', addr));
  });

  it('an IPv6 machine cannot start a new count by changing the last 64 bits', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`v6user${i}`, 'x', `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    expectLimited(await signIn('v6user10', 'x', '2001:db8:1:2:ffff::1'));
    const r = await signIn('user', 'user', '2001:db8:1:3::1');
    expect(r.statusCode, r.body).toBe(200);
    await release(r);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and groups IPv6 by /64', () => {
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:0:0:1:2:3:4')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
