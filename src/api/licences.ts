import * as z from 'zod/mini';

/**
 * Licence calls (the user-app spec §7): GET api/licenses with HTTP Basic credentials obtains a licence;
 * GET api/licenses/{token} returns it; GET api/licenses?validate=true checks the token in use.
 * DELETE api/licenses/{token} releases it at logout (the spec's logout; its path is not shown).
 */
export const LicenceType = {
  full: 1,
  webOnlyReadOnly: 4,
} as const;

export const Licence = z.object({
  Token: z.string().check(z.minLength(16)),
  Type: z.int(),
});
export type Licence = z.infer<typeof Licence>;

export const LicenceValidation = z.object({
  Valid: z.boolean(),
  Type: z.optional(z.int()),
  Restricted: z.optional(z.boolean()),
  /** ISO time at which the lease ends unless the licence is used again. */
  LeaseEnds: z.optional(z.string()),
  /**
   * Why a licence is not valid: 'lease' (idle past its lease; the calls answer 402), 'max-time'
   * (past its maximum time; 499), 'released' (logged out, revoked or unknown; LicenseExpired).
   */
  Reason: z.optional(z.enum(['lease', 'max-time', 'released'])),
});
export type LicenceValidation = z.infer<typeof LicenceValidation>;

export const licencePaths = {
  obtain: '/api/licenses',
  one: (token: string) => `/api/licenses/${encodeURIComponent(token)}`,
  authorize: '/api/authorize',
} as const;
