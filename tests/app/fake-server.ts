import { jsonResponse } from '../api/fake-fetch';

export interface FakeServerOptions {
  databases?: { Id: number; Name: string }[] | 'fail';
  admin?: boolean;
  valid?: boolean;
  restricted?: boolean;
}

/** Answers the calls of this issue roughly as the reference server does. */
export function fakeServer(o: FakeServerOptions = {}) {
  return (url: URL, init?: RequestInit): Response => {
    const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
    if (url.pathname === '/api/licenses' && auth) {
      const [user, pass] = atob(auth.replace('Basic ', '')).split(':');
      if (user === 'kiosk') return jsonResponse({ Message: 'All licenses are in use', Key: 'ERROR_CANT_OBTAIN_LICENSE' }, { status: 409 });
      if (user !== pass) return jsonResponse({ Message: 'Invalid credentials', Key: 'ERROR_INVALID_CREDENTIALS' }, { status: 401 });
      return jsonResponse({ Token: `token-of-${user}-0123456789`, Type: user === 'viewer' ? 4 : 1 });
    }
    if (url.pathname === '/api/licenses' && url.searchParams.get('validate') === 'true') {
      return jsonResponse({ Valid: o.valid ?? true, Type: 1, Restricted: o.restricted ?? false });
    }
    if (url.pathname.startsWith('/api/licenses/') && init?.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.pathname === '/api/dbs') {
      if (o.databases === 'fail') return jsonResponse({ Message: 'Database server down' }, { status: 500 });
      return jsonResponse(o.databases ?? [{ Id: 1, Name: 'Sales' }, { Id: 2, Name: 'Human Resources' }]);
    }
    if (url.pathname === '/api/admin') {
      const fn = url.searchParams.get('function');
      if (fn === 'user') {
        return jsonResponse({ Id: 1, Name: o.admin ? 'admin' : 'user', Email: null, LicenceType: 1, IsUserAdmin: !!o.admin, IsAdminAll: !!o.admin, IsAnyDbAdmin: !!o.admin, DelegationDbIds: [] });
      }
      if (fn === 'version') return jsonResponse({ Version: '1.0.0' });
      return jsonResponse({ Value: !!o.admin });
    }
    return jsonResponse({ Message: `not found: ${url.pathname}` }, { status: 404 });
  };
}
