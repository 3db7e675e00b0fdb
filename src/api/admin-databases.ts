/**
 * Databases in the administration console (the console spec §3 Database, §5, §6, §7):
 *   GET    admin/databases                 -> AdminDatabaseList (the databases the user administers)
 *   POST   admin/databases    DatabaseEdit -> AdminDatabase (administrator of all databases; a second
 *                                             database needs the MDB feature: MULTIPLE_DATABASES_NOT_LICENSED)
 *   GET    admin/databases/{id}            -> AdminDatabase; with rebuild=true the SQL indexes are
 *                                             rebuilt first (Rebuilt: true)
 *   PUT    admin/databases/{id} DatabaseEdit -> AdminDatabase
 *   DELETE admin/databases/{id}?drop=      -> DatabaseDeleted (administrator of all databases; without
 *                                             drop=true a database that still has archives is refused,
 *                                             409 DATABASE_NOT_EMPTY; with it everything in it goes)
 * Names are filtered as §5 says (filterDatabaseName) on both sides.
 */
import * as z from 'zod/mini';

/** §5: characters other than letters, digits and ` ! ^ ( ) + = { } [ ; $ , . _ - are stripped (spaces too). */
export function filterDatabaseName(name: string): string {
  return name.replace(/[^\p{L}\p{N}`!^()+={}[;$,._-]/gu, '');
}

export const AdminDatabase = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  Catalog: z.nullable(z.string()),
  Server: z.nullable(z.string()),
  /** The authentication type (0 the archive's own users). */
  AuthType: z.int(),
  Rebuilt: z.optional(z.boolean()),
});
export type AdminDatabase = z.infer<typeof AdminDatabase>;
export const AdminDatabaseList = z.array(AdminDatabase);

export const DatabaseEdit = z.object({
  Name: z.string().check(z.maxLength(200)),
  Catalog: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  Server: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  AuthType: z.optional(z.int().check(z.minimum(0), z.maximum(10))),
});
export type DatabaseEdit = z.infer<typeof DatabaseEdit>;

export const DatabaseDeleted = z.looseObject({ Id: z.int(), Dropped: z.boolean() });

/** The MDB feature licence (registration features) lets an installation have more than one database. */
export const MDB_FEATURE = 'MDB';
