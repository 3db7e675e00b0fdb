import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { Licence, licencePaths } from '../../../api/licences';

/** Basic credentials, UTF-8 safe (btoa alone fails on non-Latin-1 names). */
export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `Basic ${btoa(bin)}`;
}

export interface Credentials {
  userName: string;
  password: string;
}

/** GET api/licenses with HTTP Basic credentials: a licence (Token, Type). */
export function obtainLicence({ userName, password }: Credentials, signal?: AbortSignal): Promise<Licence> {
  return apiRequest({
    path: licencePaths.obtain,
    auth: 'none',
    headers: { Authorization: basicAuth(userName, password) },
    schema: Licence,
    signal,
  });
}

/** Errors are shown in the login form itself, not by the global handler. */
export function useObtainLicence() {
  return useMutation({ mutationFn: (c: Credentials) => obtainLicence(c), meta: { handlesOwnErrors: true } });
}
