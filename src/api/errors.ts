import * as z from 'zod/mini';

/**
 * The error body every API answer that is not 2xx carries: the spec's `Message` (shown to the user
 * as it is), and for errors the client must recognise, a `Key` from the spec's catalogue
 * (the user-app spec §8, the archive-ops spec §8). Shared by the server (which sends it) and the client
 * (which parses it in its one error handler).
 */
export const ErrorBody = z.object({
  Message: z.string(),
  Key: z.optional(z.string()),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Message texts the spec asks the client to recognise by content. */
export const WIRE_MESSAGES = {
  /** Token unknown or missing: the client goes to /direct?op=2 (licence expired page). */
  licenseExpiredKey: 'LicenseExpired',
  /** The licence's maximum time ran out (status 499): login page with the licence-expired title. */
  licenseExpiredText: 'License Expired',
  /** Every seat of the user's licence rule is taken: ERROR_CANT_OBTAIN_LICENSE, token kept. */
  allLicensesInUse: 'All licenses are in use',
  /** Idle longer than the lease (status 402): the lease-expired modal, shown once. */
  leaseExpired: 'Lease expired',
  /** Sort on a column the search cannot sort by: DISCARDING_INVALID_GRID_SORT_MSG. */
  invalidSort: 'Invalid search string, Sort field',
  userManagementNotAuthorized: 'Account Not Authorized For User Management',
} as const;

/** HTTP statuses with a meaning of their own in the spec. */
export const WIRE_STATUS = {
  leaseExpired: 402,
  licenseExpired: 499,
} as const;

/** Header a server sends with a 403 that means "sign in again" (the user-app spec §8). */
export const LOGIN_REDIRECT_HEADER = 'X-Login-Redirect';
/** Header carrying the token, as an alternative to the `token` query parameter. */
export const TOKEN_HEADER = 'Auth-Token';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/**
 * Header on every authenticated API answer: the catalogue version (server/services/catalogue-version.ts),
 * raised by every change of databases, archives, fields, lists, searches, rights, links or stamps.
 * The app reads its kept metadata again when it changes (src/api/catalogue-version.ts).
 */
export const CATALOGUE_VERSION_HEADER = 'Catalogue-Version';
