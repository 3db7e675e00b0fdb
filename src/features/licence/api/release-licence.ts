import * as z from 'zod/mini';
import { apiRequest } from '../../../api/http';
import { licencePaths } from '../../../api/licences';

/** DELETE api/licenses/{token}: gives the seat back at logout (the token also rides as usual). */
export function releaseLicence(token: string): Promise<unknown> {
  return apiRequest({ method: 'DELETE', path: licencePaths.one(token), auth: 'none', query: { token }, schema: z.unknown() });
}
