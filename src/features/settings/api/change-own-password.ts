import { apiRequest } from '../../../api/http';
import { PasswordChangeAnswer, SelfPasswordChange, userPaths } from '../../../api/users';

/**
 * POST api/users?isSelfPasswordChange=true (src/api/users.ts). The passwords go in the JSON body,
 * never in the address, so they stay out of logs and the browser's history.
 */
export function changeOwnPassword(body: SelfPasswordChange): Promise<PasswordChangeAnswer> {
  return apiRequest({ method: 'POST', path: userPaths.users, query: { isSelfPasswordChange: 'true' }, body, schema: PasswordChangeAnswer });
}
