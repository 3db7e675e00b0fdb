/**
 * Full administration console calls (the console spec §7): an admin base path, Auth-Token header,
 * keys converted between camel and Pascal case (case.ts). Payload values are not shown in the spec.
 */
const base = '/api/admin';

export const adminConsolePaths = {
  databases: `${base}/databases`,
  /** GET (rebuild=true: SQL index rebuild), PUT, DELETE (drop). */
  database: (id: number) => `${base}/databases/${id}`,
  archives: (db: number) => `${base}/databases/${db}/archives`,
  archive: (db: number, archiveId: number) => `${base}/databases/${db}/archives/${archiveId}`,
  /** GET with docCount (requests 1000 documents). */
  indexRebuild: (db: number, archiveId: number) => `${base}/databases/${db}/archives/${archiveId}/indexrebuild`,
  dxcSources: (db: number, archiveId: number) => `${base}/databases/${db}/archives/${archiveId}/dxc`,
  dxcSource: (db: number, archiveId: number, dxcId: number) => `${base}/databases/${db}/archives/${archiveId}/dxc/${dxcId}`,
  archiveOptions: (db: number) => `${base}/databases/${db}/options/archives`,
  /** kind: fields, tablefields, lists, searches; PUT lists/ tests an assembly-bound list. */
  catalogue: (db: number, kind: 'fields' | 'tablefields' | 'lists' | 'searches', id?: number) =>
    `${base}/databases/${db}/${kind}${id === undefined ? '' : `/${id}`}`,
  /** GET with includeGlobal, PUT. */
  archiveNotifications: (db: number, archiveId: number) => `${base}/databases/${db}/archives/${archiveId}/notifications`,
  inboxes: (id?: number) => `${base}/inboxes${id === undefined ? '' : `/${id}`}`,
  inboxOptions: `${base}/options/inboxes`,
  notifications: `${base}/notifications`,
  stamps: (id?: number) => `${base}/stamps${id === undefined ? '' : `/${id}`}`,
  /** GET; POST web activation; PUT manual; GET ?features=true. */
  registration: `${base}/registration`,
  /** GET; GET ?IID; POST; PUT; DELETE ?IID. */
  licenseRules: `${base}/licenserules`,
  /** PUT with ConnectionString. */
  dxTables: `${base}/DXTables`,
  importDatabase: `${base}/importdatabase`,
  instancesDefault: `${base}/instances/default`,
  instancesList: `${base}/instances/list`,
  configuration: '/api/configuration',
  advancedLinks: (db: number) => `/api/AdvancedLinks/databases/${db}`,
  fullAdminDatabaseImport: '/api/FullAdminDatabaseImport',
  fullAdminPackage: '/api/FullAdminPackage',
  /** GET logId; GET history; DELETE history; DatabaseName & Guid. */
  fullAdminLog: '/api/FullAdminLog',
  fullAdminDatabaseExport: '/api/FullAdminDatabaseExport',
} as const;

/** Licence rule types and time units (the user-app spec §3). */
export const LICENCE_RULE_TYPES = { all: 0, user: 1, group: 2, full: 4, webOnly: 8, webOnlyReadOnly: 16 } as const;
export const LICENCE_TIME_UNITS = ['minutes', 'hours', 'days'] as const;
