import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/http';
import { AdminFeature, CurrentUser, FlagAnswer, VersionAnswer, adminPaths } from '../../../api/admin-functions';

/**
 * GET api/admin: the signed-in user's administrator rights and feature licences, which decide the
 * header buttons (the user-app spec §1, §6). The server enforces the same rights.
 */
export interface AdminRights {
  user: CurrentUser;
  isAnyDbAdmin: boolean;
  isAdminAll: boolean;
  featureUsers: boolean;
  featureWorkflow: boolean;
}

function flag(query: Record<string, string>, signal?: AbortSignal): Promise<boolean> {
  return apiRequest({ path: adminPaths.functions, query, schema: FlagAnswer, signal }).then((a) => a.Value);
}

/** GET api/admin?function=user: who the token in use belongs to. */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return apiRequest({ path: adminPaths.functions, query: { function: 'user' }, schema: CurrentUser, signal });
}

export async function getAdminRights(signal?: AbortSignal): Promise<AdminRights> {
  const feature = (f: AdminFeature) => flag({ feature: f }, signal);
  const [user, isAnyDbAdmin, isAdminAll, featureUsers, featureWorkflow] = await Promise.all([
    getCurrentUser(signal),
    flag({ function: 'isAnyDbAdmin' }, signal),
    flag({ function: 'isAdminAll' }, signal),
    feature('usr'),
    feature('gaw'),
  ]);
  return { user, isAnyDbAdmin, isAdminAll, featureUsers, featureWorkflow };
}

/** `scope` is sessionScope(session): cached per user, not per token. */
export function adminRightsQueryOptions(scope: string | null) {
  return queryOptions({
    queryKey: ['admin', 'rights', scope],
    queryFn: ({ signal }) => getAdminRights(signal),
    enabled: scope !== null,
    staleTime: 10 * 60 * 1000,
  });
}

export function useAdminRights(scope: string | null) {
  return useQuery(adminRightsQueryOptions(scope));
}

export function getServerVersion(signal?: AbortSignal): Promise<string> {
  return apiRequest({ path: adminPaths.functions, query: { function: 'version' }, schema: VersionAnswer, signal }).then((a) => a.Version);
}

export function serverVersionQueryOptions(scope: string | null) {
  return queryOptions({ queryKey: ['admin', 'version', scope], queryFn: ({ signal }) => getServerVersion(signal), enabled: scope !== null });
}

export function useServerVersion(scope: string | null) {
  return useQuery(serverVersionQueryOptions(scope));
}

/** Which header buttons the rights give (the user-app spec §1). */
export function headerButtons(r: AdminRights | undefined) {
  return {
    userAdmin: !!r && r.featureUsers && r.user.IsUserAdmin,
    fullAdmin: !!r && r.isAnyDbAdmin,
    licenceManager: !!r && r.isAdminAll,
    batchAdmin: !!r && r.isAnyDbAdmin,
    flowAdmin: !!r && r.featureWorkflow && r.isAnyDbAdmin,
    captureAdmin: !!r && r.isAdminAll,
  };
}
