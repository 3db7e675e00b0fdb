import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { LicenceValidation, licencePaths } from '../../../api/licences';

/** GET api/licenses?validate=true&token=: is the token in use still valid, and is it restricted. */
export function validateLicence(signal?: AbortSignal): Promise<LicenceValidation> {
  return apiRequest({ path: licencePaths.obtain, query: { validate: true }, schema: LicenceValidation, signal });
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
    meta: { persist: false },
    retry: false,
  });
}

export function useValidateLicence(token: string | null, recheckSeconds: number) {
  return useQuery(validateLicenceQueryOptions(token, recheckSeconds));
}
