import * as z from 'zod/mini';

/**
 * Data-exchange (DXC) sources of an archive (the console spec §3 DXC source, §5, §7), in the wire's
 * PascalCase (adminCall converts for the console):
 *
 *   GET    dxcPaths.list(db, a)          -> DxcSourceList
 *   POST   dxcPaths.list(db, a)          DxcSourceInput -> DxcSource
 *   GET    dxcPaths.one(db, a, id)       -> DxcSource
 *   PUT    dxcPaths.one(db, a, id)       DxcSourceInput -> DxcSource
 *   DELETE dxcPaths.one(db, a, id)       -> 204
 *   PUT    dxcPaths.test                 { ConnectionString } -> DxcTestResult
 *
 * Administrators of the database only (403 otherwise); a read-only licence reads only. A name used
 * by another source of the archive (case-insensitively) is refused with 409 DXC_SOURCE_NAME_EXISTS;
 * a mapping's ArchiveField must be a field of the archive (400).
 *
 * The connection test (PUT admin/DXTables) is for administrators of any database. This server can
 * only reach PostgreSQL over the network: a postgres:// or postgresql:// address with a host (no unix
 * socket), an optional port, database, user and password, and no option but sslmode is tried (at most
 * DXC_TEST_TIMEOUT_MS to connect and list the tables); any other string answers Success false with Key
 * DXC_CONNECTION_UNSUPPORTED. A PostgreSQL server's refusal (wrong password, no such database)
 * answers DXC_CONNECTION_FAILED with its reason; every other failure (refused, unknown host, timeout,
 * something else listening) answers DXC_CONNECTION_UNREACHABLE, no reason, after the whole timeout,
 * so the test does not tell which hosts and ports are open. It never hangs and never answers 500 for
 * a bad string.
 */

const base = '/api/admin/databases';
export const dxcPaths = {
  list: (db: number, archiveId: number) => `${base}/${db}/archives/${archiveId}/dxc`,
  one: (db: number, archiveId: number, id: number) => `${base}/${db}/archives/${archiveId}/dxc/${id}`,
  test: '/api/admin/DXTables',
} as const;

export const DXC_NAME_MAX = 200;
export const DXC_CONNECTION_MAX = 2000;
export const DXC_TEST_TIMEOUT_MS = 5000;
/** At most this many tables are listed by a successful test. */
export const DXC_TABLES_MAX = 100;

export const DxcMapping = z.object({
  ArchiveField: z.int().check(z.positive()),
  MappedField: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  Required: z.boolean(),
});
export type DxcMapping = z.infer<typeof DxcMapping>;

export const DxcSourceInput = z.object({
  Name: z.string().check(z.trim(), z.minLength(1), z.maxLength(DXC_NAME_MAX)),
  ConnectionString: z.string().check(z.maxLength(DXC_CONNECTION_MAX)),
  Mapping: z.array(DxcMapping),
});
export type DxcSourceInput = z.infer<typeof DxcSourceInput>;

export const DxcSource = z.extend(DxcSourceInput, { Id: z.int(), ArchiveId: z.int() });
export type DxcSource = z.infer<typeof DxcSource>;
export const DxcSourceList = z.array(DxcSource);

export const DxcTestRequest = z.object({ ConnectionString: z.string().check(z.maxLength(DXC_CONNECTION_MAX)) });
export const DxcTestResult = z.object({
  Success: z.boolean(),
  /** DXC_CONNECTION_OK, DXC_CONNECTION_UNSUPPORTED, DXC_CONNECTION_FAILED, DXC_CONNECTION_UNREACHABLE. */
  Key: z.string(),
  /** A PostgreSQL server's own words on DXC_CONNECTION_FAILED (not translated); empty otherwise. */
  Message: z.string(),
  Tables: z.array(z.string()),
});
export type DxcTestResult = z.infer<typeof DxcTestResult>;

/** Connection strings this server can test. */
export function isTestableConnection(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s.trim());
}

/** §5: the name must not duplicate another source (case-insensitively, spaces around ignored). */
export function dxcNameTaken(name: string, others: readonly { id: number; name: string }[], selfId: number | null): boolean {
  const n = name.trim().toLowerCase();
  return others.some((o) => o.id !== selfId && o.name.trim().toLowerCase() === n);
}

/** A mapping's archive fields each once: the first of each kept. */
export function duplicateMappedFields(mapping: readonly { archiveField: number }[]): number[] {
  const seen = new Set<number>();
  const dup: number[] = [];
  for (const m of mapping) {
    if (seen.has(m.archiveField) && !dup.includes(m.archiveField)) dup.push(m.archiveField);
    seen.add(m.archiveField);
  }
  return dup;
}
