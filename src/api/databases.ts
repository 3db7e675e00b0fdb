import * as z from 'zod/mini';

/** GET api/dbs (the user-app spec §7): the databases the signed-in user may open. */
export const Database = z.object({ Id: z.int().check(z.positive()), Name: z.string() });
export type Database = z.infer<typeof Database>;
export const DatabaseList = z.array(Database);

export const databasePaths = {
  list: '/api/dbs',
} as const;
