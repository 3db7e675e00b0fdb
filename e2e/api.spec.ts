import { test, expect } from '@playwright/test';
import { DEMO, basic, obtainLicence } from './support';

// The wire contract as a client with no UI sees it, against the running reference server.
test.describe('API', () => {
  test('a licence is obtained with HTTP Basic and opens the database list', async ({ request }) => {
    const res = await obtainLicence(request, DEMO.admin.user, DEMO.admin.password);
    expect(res.status()).toBe(200);
    const licence = await res.json();
    expect(licence).toEqual({ Token: expect.any(String), Type: 1 });

    const dbs = await request.get(`/api/dbs?token=${encodeURIComponent(licence.Token)}`);
    expect(dbs.status()).toBe(200);
    const list = await dbs.json();
    expect(list.length).toBeGreaterThanOrEqual(2);
    for (const d of list) expect(Object.keys(d).sort()).toEqual(['Id', 'Name']);

    const viaHeader = await request.get('/api/dbs', { headers: { 'Auth-Token': licence.Token } });
    expect(await viaHeader.json()).toEqual(list);
    await request.delete(`/api/licenses/${encodeURIComponent(licence.Token)}?token=${encodeURIComponent(licence.Token)}`);
  });

  test("a field's RegEx is checked by the running server (its engine installed at start, not only in the tests)", async ({ request }) => {
    const { Token } = await (await obtainLicence(request, DEMO.user.user, DEMO.user.password)).json();
    // Account Code (field 17, Invoices = archive 1): `^[A-Z]{2}-\d{4}$`, with its own message.
    const res = await request.post(`/api/indexes?dbId=1&archiveId=1&token=${encodeURIComponent(Token)}`, {
      data: [{ ID: 17, VAL: 'ab-12' }, { ID: 17, VAL: 'AB-1234' }],
    });
    expect(res.status()).toBe(200);
    const [bad, good] = (await res.json()) as { ID: number; Code: number; Message?: string }[];
    expect(bad!.Code).not.toBe(0);
    expect(bad!.Message).toBe('Account code must look like AB-1234');
    expect(good!.Code).toBe(0);
  });

  test('wrong password, missing and released tokens are refused with the catalogue messages', async ({ request }) => {
    const wrong = await request.get('/api/licenses', { headers: { Authorization: basic('admin', 'nope') } });
    expect(wrong.status()).toBe(401);
    expect((await wrong.json()).Message).toBeTruthy();

    const missing = await request.get('/api/dbs');
    expect(missing.status()).toBe(401);
    expect((await missing.json()).Message).toBe('LicenseExpired');

    const { Token } = await (await obtainLicence(request, 'user', 'user')).json();
    const out = await request.delete(`/api/licenses/${encodeURIComponent(Token)}?token=${encodeURIComponent(Token)}`);
    expect(out.status()).toBe(204);
    const after = await request.get(`/api/dbs?token=${encodeURIComponent(Token)}`);
    expect(after.status()).toBe(401);
    expect((await after.json()).Message).toBe('LicenseExpired');
  });

  test('the read-only licence cannot change anything', async ({ request }) => {
    const res = await obtainLicence(request, DEMO.viewer.user, DEMO.viewer.password);
    const licence = await res.json();
    expect(licence.Type).toBe(4);
    const t = encodeURIComponent(licence.Token);
    for (const [method, path] of [
      ['PUT', `/api/UpdateDocument/databases/1/archive/1/document/1/FieldData?token=${t}`],
      ['POST', `/api/dbs/1/merge?token=${t}`],
      ['POST', `/api/admin/databases?token=${t}`],
      ['DELETE', `/api/admin/stamps/1?token=${t}`],
    ] as const) {
      const r = await request.fetch(path, { method, data: { ID: 1, VAL: 'x' } });
      expect(r.status(), `${method} ${path}`).toBe(403);
    }
  });

  test('all licences in use: a second sign-in on a one-seat rule is refused', async ({ request }) => {
    const first = await obtainLicence(request, DEMO.kiosk.user, DEMO.kiosk.password);
    expect(first.status()).toBe(200);
    const second = await obtainLicence(request, DEMO.kiosk.user, DEMO.kiosk.password);
    expect(second.status()).toBe(409);
    expect((await second.json()).Message).toMatch(/all licenses are in use/i);
    const { Token } = await first.json();
    await request.delete(`/api/licenses/${encodeURIComponent(Token)}?token=${encodeURIComponent(Token)}`);
    const again = await obtainLicence(request, DEMO.kiosk.user, DEMO.kiosk.password);
    expect(again.status()).toBe(200);
    const t = (await again.json()).Token as string;
    await request.delete(`/api/licenses/${encodeURIComponent(t)}?token=${encodeURIComponent(t)}`);
  });

  test('unknown API paths answer JSON, never the app page', async ({ request }) => {
    const anonymous = await request.get('/api/no/such/call');
    expect(anonymous.status()).toBe(401);
    expect(anonymous.headers()['content-type']).toContain('application/json');
    const { Token } = await (await obtainLicence(request, DEMO.user.user, DEMO.user.password)).json();
    const r = await request.get(`/api/no/such/call?token=${encodeURIComponent(Token)}`);
    expect(r.status()).toBe(404);
    expect(r.headers()['content-type']).toContain('application/json');
    expect((await r.json()).Message).toBeTruthy();
    await request.delete(`/api/licenses/${encodeURIComponent(Token)}?token=${encodeURIComponent(Token)}`);
  });
});
