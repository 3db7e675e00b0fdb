import * as z from 'zod/mini';

/** Delegation (the user-app spec §3, §7; the archive-ops spec §7). */
export const DelegateType = z.enum(['permissions', 'delegates', 'emaillist']);
export type DelegateType = z.infer<typeof DelegateType>;

export const DelegateRecord = z.looseObject({ User: z.string(), Delegate: z.string() });
export const DelegateList = z.array(DelegateRecord);
export const DelegationPermissions = z.looseObject({ Permissions: z.boolean(), Active: z.boolean(), CurrentUser: z.string() });

export const delegatePaths = {
  /** GET with token, DatabaseID, type; POST with token and DatabaseID carrying the list; POST with status. */
  delegate: '/api/Delegate',
} as const;
