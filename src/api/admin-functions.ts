import * as z from 'zod/mini';

/**
 * GET api/admin?function=... and ?feature=... (the user-app spec §7, the archive-ops spec §7): who the
 * signed-in user is and which administrator rights and feature licences they hold. The header
 * buttons (the user-app spec §1) are shown from these answers; the server enforces the same rights.
 */
export const AdminFunction = z.enum(['version', 'isAnyDbAdmin', 'isAdminAll', 'isDbAdmin', 'user', 'isS9User', 'isExternalS9User']);
export type AdminFunction = z.infer<typeof AdminFunction>;
export const AdminFeature = z.enum(['usr', 'gaw']);
export type AdminFeature = z.infer<typeof AdminFeature>;

export const VersionAnswer = z.object({ Version: z.string() });
/** isAnyDbAdmin, isAdminAll, isDbAdmin, feature=usr|gaw */
export const FlagAnswer = z.object({ Value: z.boolean() });
export const RoleAnswer = z.object({ IsS9User: z.optional(z.boolean()), IsExternalS9User: z.optional(z.boolean()) });

export const CurrentUser = z.object({
  Id: z.int(),
  Name: z.string(),
  Email: z.nullable(z.string()),
  LicenceType: z.int(),
  IsUserAdmin: z.boolean(),
  IsAdminAll: z.boolean(),
  IsAnyDbAdmin: z.boolean(),
  /** Databases on which the user may delegate (Settings > Delegate). */
  DelegationDbIds: z.array(z.int()),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const adminPaths = {
  functions: '/api/admin',
} as const;
