/**
 * The client's one error handler (the user-app spec §8). `classifyError` maps any thrown value to one row
 * of the catalogue (pure: unit-tested row by row); `handleError` carries the row out through the
 * effects the app registers at start (navigate, notify, the lease-expired modal, ending the session).
 */
import { ApiError, isAbortError, isApiError } from './api-error';
import { WIRE_MESSAGES, WIRE_STATUS } from './errors';
import { apiText } from './api-text';

export type ErrorAction =
  | { type: 'ignore' }
  /** 499 / "licence expired": login page with the licence-expired title. */
  | { type: 'licenceExpired'; message: string }
  /** Message LicenseExpired, or no token: /direct?op=2. */
  | { type: 'licenceExpiredPage' }
  /** 402: the lease-expired modal, once. */
  | { type: 'leaseExpired' }
  /** "All licenses are in use": ERROR_CANT_OBTAIN_LICENSE with the server text; the token is kept. */
  | { type: 'cantObtainLicence'; message: string }
  /** 403 with the login redirect header, or an HTML page answering an API call. */
  | { type: 'login'; message: string }
  /** Everything else: an error notification (job note kind 0). */
  | { type: 'notify'; message: string };

const LICENCE_EXPIRED_TEXT = /licen[cs]e\s+expired/i;

export function classifyError(e: unknown): ErrorAction {
  if (isAbortError(e)) return { type: 'ignore' };
  if (!isApiError(e)) return { type: 'notify', message: apiText('ERROR_UNKNOWN') };

  const server = e.serverMessage ?? '';
  if (server === WIRE_MESSAGES.userManagementNotAuthorized) return { type: 'ignore' };
  if (e.kind === 'html') return { type: 'login', message: apiText('SESSION_ENDED_MESSAGE') };
  if (e.kind === 'noToken' || server === WIRE_MESSAGES.licenseExpiredKey) return { type: 'licenceExpiredPage' };
  if (server.toLowerCase().includes(WIRE_MESSAGES.allLicensesInUse.toLowerCase())) {
    return { type: 'cantObtainLicence', message: server };
  }
  if (
    e.status === WIRE_STATUS.licenseExpired ||
    LICENCE_EXPIRED_TEXT.test(e.statusText) ||
    LICENCE_EXPIRED_TEXT.test(server) ||
    LICENCE_EXPIRED_TEXT.test(e.bodyText ?? '')
  ) {
    return { type: 'licenceExpired', message: apiText('LICENSE_EXPIRED_MESSAGE') };
  }
  if (e.status === WIRE_STATUS.leaseExpired) return { type: 'leaseExpired' };
  if (e.status === 403 && e.loginRedirect) return { type: 'login', message: apiText('SESSION_ENDED_MESSAGE') };
  return { type: 'notify', message: errorText(e) };
}

/** The text shown for an error: the server's Message, else "{method} {url} {statusText}". */
export function errorText(e: unknown): string {
  if (!isApiError(e)) return apiText('ERROR_UNKNOWN');
  if (e.serverMessage) return e.serverMessage;
  if (e.kind === 'parse' || e.kind === 'network') return e.message;
  return apiText('ERROR_DEFAULT', { method: e.method, url: e.url, statusText: e.statusText }).trim();
}

export interface LoginUrlParams {
  redirectUrl?: string;
  errorTitle?: string;
  errorMessage?: string;
  isLicenseExpired?: boolean;
}

/** /login with the parameters of the spec's separate login page (the user-app spec §2). */
export function loginUrl(p: LoginUrlParams = {}): string {
  const q = new URLSearchParams();
  if (p.isLicenseExpired) q.set('isLicenseExpired', 'true');
  if (p.errorTitle) q.set('errorTitle', p.errorTitle);
  if (p.errorMessage) q.set('errorMessage', p.errorMessage);
  if (p.redirectUrl) q.set('redirectUrl', p.redirectUrl);
  const s = q.toString();
  return s ? `/login?${s}` : '/login';
}

export interface ErrorEffects {
  /** May return a promise that settles when the navigation is done (the router's navigate does). */
  navigate: (url: string) => void | Promise<void>;
  /** Path + search of the page the user is on (without the token). */
  currentUrl: () => string;
  notify: (kind: 'error' | 'info', text: string) => void;
  showLeaseExpired: () => void;
  /** Forget the session; `nextUrl` is where the user is being sent. */
  endSession: (nextUrl?: string) => void;
}

let effects: ErrorEffects = {
  navigate: () => undefined,
  currentUrl: () => '/',
  notify: () => undefined,
  showLeaseExpired: () => undefined,
  endSession: () => undefined,
};

export function configureErrorHandler(e: Partial<ErrorEffects>): void {
  effects = { ...effects, ...e };
}

function onAuthPage(): boolean {
  const here = effects.currentUrl();
  return here.startsWith('/login') || here.startsWith('/direct') || here.startsWith('/logout');
}

/**
 * Go to `url` and forget the session. The session's end carries the same address, so a route guard
 * that sees the session vanish before the navigation lands sends the user to the same place.
 */
function leaveThenEndSession(url: string | null): void {
  if (url !== null) void effects.navigate(url);
  effects.endSession(url ?? undefined);
}

function redirectTarget(): string | undefined {
  return onAuthPage() ? undefined : effects.currentUrl();
}

export function handleError(e: unknown): ErrorAction {
  const action = classifyError(e);
  switch (action.type) {
    case 'ignore':
      break;
    case 'licenceExpired':
      leaveThenEndSession(
        onAuthPage()
          ? null
          : loginUrl({ isLicenseExpired: true, errorTitle: apiText('LICENSE_EXPIRED_TITLE'), errorMessage: action.message, redirectUrl: redirectTarget() }),
      );
      break;
    case 'licenceExpiredPage':
      leaveThenEndSession(onAuthPage() ? null : '/direct?op=2');
      break;
    case 'leaseExpired':
      effects.showLeaseExpired();
      break;
    case 'cantObtainLicence':
      effects.notify('error', apiText('ERROR_CANT_OBTAIN_LICENSE', { message: action.message }));
      break;
    case 'login':
      leaveThenEndSession(onAuthPage() ? null : loginUrl({ errorMessage: action.message, redirectUrl: redirectTarget() }));
      break;
    case 'notify':
      console.error(e);
      effects.notify('error', action.message);
      break;
  }
  return action;
}

export { ApiError };
