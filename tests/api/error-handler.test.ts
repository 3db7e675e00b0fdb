import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/api/api-error';
import { classifyError, configureErrorHandler, handleError, loginUrl } from '../../src/api/error-handler';
import { apiRequest, configureHttp } from '../../src/api/http';
import { fakeFetch, jsonResponse } from './fake-fetch';

/** Runs one call against a fake answer and returns what it threw. */
async function failWith(res: () => Response, opts: { token?: string | null } = {}): Promise<unknown> {
  const f = fakeFetch(res);
  configureHttp({ fetchFn: f.fn, token: () => (opts.token === undefined ? 'tok-123' : opts.token), baseUrl: () => '' });
  try {
    await apiRequest({ path: '/api/dbs', schema: z.array(z.object({ Id: z.number(), Name: z.string() })) });
  } catch (e) {
    return e;
  }
  throw new Error('the call did not fail');
}

describe('classifyError: the catalogue of the user-app spec §8', () => {
  it('shows the server Message', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'Archive is locked' }, { status: 500, statusText: 'Internal Server Error' }));
    expect(classifyError(e)).toEqual({ type: 'notify', message: 'Archive is locked' });
  });

  it('defaults to "{method} {url} {statusText}" without a Message', async () => {
    const e = await failWith(() => new Response('oops', { status: 500, statusText: 'Internal Server Error', headers: { 'content-type': 'text/plain' } }));
    expect(classifyError(e)).toEqual({ type: 'notify', message: 'GET /api/dbs Internal Server Error' });
  });

  it('never shows the token in the default text', async () => {
    const e = (await failWith(() => new Response('', { status: 500, statusText: 'Bad' }))) as ApiError;
    expect(e.url).toBe('/api/dbs');
    expect(classifyError(e)).toEqual({ type: 'notify', message: 'GET /api/dbs Bad' });
  });

  it('499 is licence expired (login page with the expired title)', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'License Expired' }, { status: 499 }));
    expect(classifyError(e).type).toBe('licenceExpired');
  });

  it('status text or body containing licence expired is licence expired', async () => {
    const a = await failWith(() => new Response('', { status: 400, statusText: 'Licence expired' }));
    expect(classifyError(a).type).toBe('licenceExpired');
    const b = await failWith(() => new Response('your license expired today', { status: 400, headers: { 'content-type': 'text/plain' } }));
    expect(classifyError(b).type).toBe('licenceExpired');
  });

  it('Message LicenseExpired goes to /direct?op=2', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'LicenseExpired' }, { status: 401 }));
    expect(classifyError(e)).toEqual({ type: 'licenceExpiredPage' });
  });

  it('a missing token goes to /direct?op=2 without calling the server', async () => {
    const f = fakeFetch(() => jsonResponse([]));
    configureHttp({ fetchFn: f.fn, token: () => null });
    const e = await apiRequest({ path: '/api/dbs', schema: z.unknown() }).catch((x: unknown) => x);
    expect(f.calls).toHaveLength(0);
    expect(classifyError(e)).toEqual({ type: 'licenceExpiredPage' });
  });

  it('402 shows the lease-expired modal', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'Lease expired' }, { status: 402 }));
    expect(classifyError(e)).toEqual({ type: 'leaseExpired' });
  });

  it('"all licenses are in use" (any case) is ERROR_CANT_OBTAIN_LICENSE with the server text', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'ALL LICENSES ARE IN USE', Key: 'ERROR_CANT_OBTAIN_LICENSE' }, { status: 409 }));
    expect(classifyError(e)).toEqual({ type: 'cantObtainLicence', message: 'ALL LICENSES ARE IN USE' });
  });

  it('403 with X-Login-Redirect goes to the login page; 403 without it is shown', async () => {
    const a = await failWith(() => jsonResponse({ Message: 'Forbidden' }, { status: 403, headers: { 'X-Login-Redirect': '/login' } }));
    expect(classifyError(a).type).toBe('login');
    const b = await failWith(() => jsonResponse({ Message: 'No rights', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 }));
    expect(classifyError(b)).toEqual({ type: 'notify', message: 'No rights' });
  });

  it('an HTML answer to an API call logs out to the login page', async () => {
    const e = await failWith(() => new Response('<!doctype html><html></html>', { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }));
    expect(classifyError(e).type).toBe('login');
  });

  it('AbortError is ignored', () => {
    expect(classifyError(new DOMException('aborted', 'AbortError'))).toEqual({ type: 'ignore' });
  });

  it('"Account Not Authorized For User Management" is ignored silently', async () => {
    const e = await failWith(() => jsonResponse({ Message: 'Account Not Authorized For User Management' }, { status: 403 }));
    expect(classifyError(e)).toEqual({ type: 'ignore' });
  });

  it('anything else is "An unknown error occured"', () => {
    expect(classifyError(new TypeError('x is undefined'))).toEqual({ type: 'notify', message: 'An unknown error occured' });
  });
});

describe('handleError carries out the row', () => {
  const effects = {
    navigate: vi.fn<(url: string) => void>(),
    currentUrl: vi.fn(() => '/view?db=2'),
    notify: vi.fn<(kind: 'error' | 'info', text: string) => void>(),
    showLeaseExpired: vi.fn(),
    endSession: vi.fn(),
  };
  beforeEach(() => {
    vi.clearAllMocks();
    effects.currentUrl.mockReturnValue('/view?db=2');
    configureErrorHandler(effects);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  const err = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) => new ApiError({ kind: 'http', method: 'GET', url: '/api/dbs', ...init });

  it('licence expired: login with isLicenseExpired, title, message and redirectUrl; session ended', async () => {
    handleError(err({ status: 499, serverMessage: 'License Expired' }));
    const url = new URL(effects.navigate.mock.calls[0]![0], 'http://x');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('isLicenseExpired')).toBe('true');
    expect(url.searchParams.get('errorTitle')).toBe('Licence expired');
    expect(url.searchParams.get('errorMessage')).toBeTruthy();
    expect(url.searchParams.get('redirectUrl')).toBe('/view?db=2');
    expect(effects.endSession).toHaveBeenCalled();
  });

  it('LicenseExpired: /direct?op=2, then the session ends', async () => {
    handleError(err({ status: 401, serverMessage: 'LicenseExpired' }));
    expect(effects.navigate).toHaveBeenCalledWith('/direct?op=2');
    expect(effects.endSession).toHaveBeenCalledWith('/direct?op=2');
  });

  it('does not navigate again when already on an auth page', () => {
    effects.currentUrl.mockReturnValue('/login?redirectUrl=%2Fselect');
    handleError(err({ status: 401, serverMessage: 'LicenseExpired' }));
    expect(effects.navigate).not.toHaveBeenCalled();
  });

  it('402: the lease-expired modal, nothing else', async () => {
    handleError(err({ status: 402, serverMessage: 'Lease expired' }));
    await Promise.resolve();
    expect(effects.showLeaseExpired).toHaveBeenCalledTimes(1);
    expect(effects.navigate).not.toHaveBeenCalled();
    expect(effects.endSession).not.toHaveBeenCalled();
  });

  it('all licences in use: a notification, the token is kept', async () => {
    handleError(err({ status: 409, serverMessage: 'All licenses are in use' }));
    await Promise.resolve();
    expect(effects.notify).toHaveBeenCalledWith('error', 'No licence could be obtained: All licenses are in use');
    expect(effects.endSession).not.toHaveBeenCalled();
    expect(effects.navigate).not.toHaveBeenCalled();
  });

  it('403 with the login header: login with a way back', () => {
    handleError(err({ status: 403, loginRedirect: true }));
    expect(effects.navigate.mock.calls[0]![0]).toMatch(/^\/login\?.*redirectUrl=%2Fview%3Fdb%3D2/);
  });

  it('other errors: an error notification with the server text', () => {
    handleError(err({ status: 500, serverMessage: 'Boom' }));
    expect(effects.notify).toHaveBeenCalledWith('error', 'Boom');
  });

  it('AbortError: nothing at all', () => {
    handleError(new DOMException('aborted', 'AbortError'));
    expect(effects.notify).not.toHaveBeenCalled();
    expect(effects.navigate).not.toHaveBeenCalled();
  });
});

describe('loginUrl', () => {
  it('encodes the parameters of the login page', () => {
    expect(loginUrl()).toBe('/login');
    expect(loginUrl({ redirectUrl: '/direct?op=1&db=3' })).toBe('/login?redirectUrl=%2Fdirect%3Fop%3D1%26db%3D3');
  });
});
