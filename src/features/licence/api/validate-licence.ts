import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { ApiError } from '../../../api/api-error';
import { WIRE_MESSAGES, WIRE_STATUS } from '../../../api/errors';
import { LicenceValidation, licencePaths } from '../../../api/licences';

/** GET api/licenses?validate=true&token=: is the token in use still valid, and is it restricted. */
export async function validateLicence(signal?: AbortSignal): Promise<LicenceValidation> {
  const answer = await apiRequest({ path: licencePaths.obtain, query: { validate: true }, schema: LicenceValidation, signal });
  // A lease or a maximum time that ran out is reported the way any other call reports it (402,
  // 499), so the one error handler shows the lease-expired modal or the licence-expired login
  // instead of the plain licence-expired page.
  const status = answer.Reason === 'lease' ? WIRE_STATUS.leaseExpired : answer.Reason === 'max-time' ? WIRE_STATUS.licenseExpired : null;
  if (!answer.Valid && status !== null) {
    throw new ApiError({
      kind: 'http',
      method: 'GET',
      url: licencePaths.obtain,
      status,
      serverMessage: status === WIRE_STATUS.leaseExpired ? WIRE_MESSAGES.leaseExpired : WIRE_MESSAGES.licenseExpiredText,
    });
  }
  return answer;
}

export function validateLicenceQueryOptions(token: string | null, recheckSeconds: number) {
  return queryOptions({
    queryKey: ['licence', 'validate', token],
    queryFn: ({ signal }) => validateLicence(signal),
    enabled: token !== null,
    staleTime: recheckSeconds * 1000,
    refetchInterval: recheckSeconds > 0 ? recheckSeconds * 1000 : false,
    // A validation answer belongs to one token and one moment: never restore it from the cache.
    gcTime: 0,
    // Checked now and then in the background: without a connection it simply waits for the next time.
    meta: { persist: false, background: true },
    retry: false,
  });
}

export function useValidateLicence(token: string | null, recheckSeconds: number) {
  return useQuery(validateLicenceQueryOptions(token, recheckSeconds));
}
