// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/db/db';
import {
  captureTokenFromAddress,
  clearSession,
  extractToken,
  getSession,
  getToken,
  loadSession,
  resetSessionForTests,
  setSession,
} from '../../src/session/session';

beforeEach(async () => {
  resetSessionForTests();
  await db.settings.clear();
  window.history.replaceState(null, '', '/');
});

describe('extractToken', () => {
  it('splits the token off and keeps the rest of the address', () => {
    expect(extractToken('/view?db=1&token=abc#x')).toEqual({ token: 'abc', cleanUrl: '/view?db=1#x' });
    expect(extractToken('/select?token=abc')).toEqual({ token: 'abc', cleanUrl: '/select' });
    expect(extractToken('/select?db=2')).toEqual({ token: null, cleanUrl: '/select?db=2' });
  });
});

describe('session', () => {
  it('is stored in Dexie settings and mirrored in memory', async () => {
    await setSession({ token: 't1', licenceType: 1, userName: 'admin' });
    expect(getToken()).toBe('t1');
    expect((await db.settings.get('session'))?.value).toEqual({ token: 't1', licenceType: 1, userName: 'admin' });
    resetSessionForTests();
    expect(getSession()).toBeNull();
    await loadSession();
    expect(getSession()?.userName).toBe('admin');
    await clearSession();
    expect(getSession()).toBeNull();
    expect(await db.settings.get('session')).toBeUndefined();
  });

  it('ignores a damaged stored session', async () => {
    await db.settings.put({ key: 'session', value: { token: 42 } });
    expect(await loadSession()).toBeNull();
  });

  it('takes the token from the address, stores it and strips it from the visible address', async () => {
    window.history.replaceState(null, '', '/view?db=3&token=secret-token');
    const found = await captureTokenFromAddress(window);
    expect(found).toBe('secret-token');
    expect(window.location.pathname + window.location.search).toBe('/view?db=3');
    expect(getToken()).toBe('secret-token');
    expect((await db.settings.get('session'))?.value).toMatchObject({ token: 'secret-token' });
  });

  it('keeps what is known of the licence when the address carries the same token', async () => {
    await setSession({ token: 'same', licenceType: 4, userName: 'viewer' });
    window.history.replaceState(null, '', '/select?token=same');
    await captureTokenFromAddress(window);
    expect(getSession()).toEqual({ token: 'same', licenceType: 4, userName: 'viewer' });
    expect(window.location.search).toBe('');
  });

  it('does nothing without a token in the address', async () => {
    window.history.replaceState(null, '', '/select?db=1');
    expect(await captureTokenFromAddress(window)).toBeNull();
    expect(window.location.search).toBe('?db=1');
  });
});
