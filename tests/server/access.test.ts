import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUser, FlagAnswer } from '../../src/api/admin-functions';
import { DatabaseList } from '../../src/api/databases';
import { ErrorBody } from '../../src/api/errors';
import { signIn, startServer, type TestServer } from './helpers';

let s: TestServer;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  s = await startServer();
  for (const u of ['admin', 'user', 'viewer']) tokens[u] = await signIn(s, u);
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, user: string) => s.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}token=${tokens[user]}` });

describe('GET /api/dbs', () => {
  it('lists the databases each user may open', async () => {
    const names = async (u: string) => DatabaseList.parse((await get('/api/dbs', u)).json()).map((d) => d.Name);
    expect(await names('admin')).toEqual(['Demo Archive', 'Records']);
    expect(await names('user')).toEqual(['Demo Archive', 'Records']);
    expect(await names('viewer')).toEqual(['Demo Archive']);
  });
});

describe('GET /api/admin', () => {
  it('answers every function with its contract shape', async () => {
    expect((await get('/api/admin?function=version', 'user')).json()).toEqual({ Version: expect.any(String) });
    expect(FlagAnswer.parse((await get('/api/admin?function=isAdminAll', 'admin')).json()).Value).toBe(true);
    expect(FlagAnswer.parse((await get('/api/admin?function=isAdminAll', 'user')).json()).Value).toBe(false);
    expect(FlagAnswer.parse((await get('/api/admin?function=isAnyDbAdmin', 'admin')).json()).Value).toBe(true);
    expect(FlagAnswer.parse((await get('/api/admin?function=isAnyDbAdmin', 'user')).json()).Value).toBe(false);
    expect(FlagAnswer.parse((await get('/api/admin?function=isDbAdmin&dbId=2', 'admin')).json()).Value).toBe(true);
    expect(FlagAnswer.parse((await get('/api/admin?function=isDbAdmin&dbId=1', 'user')).json()).Value).toBe(false);
    expect((await get('/api/admin?function=isS9User', 'user')).json()).toEqual({ IsS9User: true });
    expect((await get('/api/admin?function=isExternalS9User', 'viewer')).json()).toEqual({ IsExternalS9User: true });
    expect((await get('/api/admin?feature=usr', 'admin')).json()).toEqual({ Value: true });
    expect((await get('/api/admin?feature=usr', 'user')).json()).toEqual({ Value: false });
    expect((await get('/api/admin?feature=gaw', 'user')).json()).toEqual({ Value: true });
  });

  it('function=user describes the signed-in user', async () => {
    const u = CurrentUser.parse((await get('/api/admin?function=user', 'user')).json());
    expect(u).toMatchObject({ Name: 'user', LicenceType: 1, IsUserAdmin: false, IsAdminAll: false, IsAnyDbAdmin: false, DelegationDbIds: [1] });
    const a = CurrentUser.parse((await get('/api/admin?function=user', 'admin')).json());
    expect(a).toMatchObject({ Name: 'admin', IsUserAdmin: true, IsAdminAll: true, IsAnyDbAdmin: true });
    const v = CurrentUser.parse((await get('/api/admin?function=user', 'viewer')).json());
    expect(v.LicenceType).toBe(4);
  });

  it.each([
    ['/api/admin', 'no function'],
    ['/api/admin?function=nope', 'unknown function'],
    ['/api/admin?feature=zzz', 'unknown feature'],
    ['/api/admin?function=isDbAdmin', 'isDbAdmin without dbId'],
    ['/api/admin?function=isDbAdmin&dbId=abc', 'dbId not a number'],
    ['/api/admin?function=isDbAdmin&dbId=-1', 'negative dbId'],
  ])('%s (%s) -> 400 ErrorBody', async (url) => {
    const r = await get(url, 'admin');
    expect(r.statusCode).toBe(400);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_INCORRECT_PARAMETERS');
  });

  it('needs a token', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/admin?function=version' });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ Message: 'LicenseExpired', Key: 'LicenseExpired' });
  });
});

// POST /api/users?isSelfPasswordChange=true: tests/server/password-change.test.ts.

describe('web-only read-only licence (type 4)', () => {
  it('is refused any write with 403', async () => {
    const r = await s.app.inject({ method: 'POST', url: `/api/users?token=${tokens.viewer}`, payload: { Password: 'abcdefg' } });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ Message: 'This licence is read-only', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' });
    const other = await signIn(s, 'admin');
    const d = await s.app.inject({ method: 'DELETE', url: `/api/licenses/${other}?token=${tokens.viewer}` });
    expect(d.statusCode).toBe(403);
  });

  it('may still change its own password and log out', async () => {
    const r = await s.app.inject({ method: 'POST', url: `/api/users?isSelfPasswordChange=true&token=${tokens.viewer}`, payload: { Password: 'viewer-new', CurrentPassword: 'viewer' } });
    expect(r.statusCode).toBe(200);
    const own = await signIn(s, 'viewer', 'viewer-new');
    expect((await s.app.inject({ method: 'DELETE', url: `/api/licenses/${own}` })).statusCode).toBe(204);
  });

  it('may read', async () => {
    expect((await get('/api/dbs', 'viewer')).statusCode).toBe(200);
  });

  it.each([
    ['PUT', '/api/UpdateDocument/databases/1/archive/1/document/1/FieldData'],
    ['POST', '/api/dbs/1/merge'],
    ['DELETE', '/api/admin/stamps/1'],
    ['PATCH', '/api/anything/at/all'],
  ])('is refused %s %s before routing, whatever the path', async (method, url) => {
    const r = await s.app.inject({ method: method as 'PUT', url: `${url}?token=${tokens.viewer}`, payload: { ID: 1, VAL: 'x' } });
    expect(r.statusCode).toBe(403);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_FAILED_DUE_TO_PERMISSIONS');
  });
});

describe('unknown API paths', () => {
  it('answer JSON 404 to a signed-in user, never the app page', async () => {
    const r = await get('/api/dbs/1/nothing-here', 'user');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(ErrorBody.parse(r.json()).Key).toBe('ERROR_NOT_FOUND');
  });
});
