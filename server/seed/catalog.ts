/**
 * The demo catalogue: databases, users and groups, licence rules, lists, fields, archives and
 * sub-archives, permissions, saved searches, inboxes, stamps, links, DXC sources, registration.
 * Ids are fixed so tests and docs can name them (see SEED_IDS).
 */
import { hashPassword } from '../auth/passwords.js';
import type { Queryable } from '../db/store.js';
import { assertIdent } from '../db/store.js';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';

/** The spec's archive permission bits, from the shared contract. */
export const RIGHTS = ARCHIVE_PERMISSIONS;
export const FULL_RIGHTS = Object.values(RIGHTS).reduce((a, b) => a | b, 0);
const READ_RIGHTS = RIGHTS.view | RIGHTS.history | RIGHTS.export | RIGHTS.email;

export const SEED_IDS = {
  db: { demo: 1, records: 2 },
  user: { admin: 1, user: 2, viewer: 3, kiosk: 4, clerk: 5 },
  group: { administrators: 1, staff: 2 },
  archive: { invoices: 1, paidInvoices: 2, contracts: 3, contractVersions: 4, correspondence: 5, incoming: 6, outgoing: 7, hrFiles: 8, records: 9, retained: 10 },
  rule: { default: 1, full: 2, webFull: 3, webReadOnly: 4, kiosk: 5 },
  list: { departments: 1, customers: 2, cities: 3, documentTypes: 4, retention: 5 },
  search: { allInvoices: 1, contentSearch: 2, invoicesByStatus: 3, contracts: 4, correspondence: 5, hidden: 6, hr: 7, records: 8, customerFiles: 9 },
  inbox: { scans: 1, mailroom: 2 },
} as const;

/** Field ids of the demo database (database 1) and the records database (2). */
export const F = {
  title: 1,
  invoiceNumber: 2,
  documentDate: 3,
  amount: 4,
  department: 5,
  customer: 6,
  country: 7,
  region: 8,
  city: 9,
  tags: 10,
  dateEntered: 11,
  indexedBy: 12,
  pageCount: 13,
  lastModifiedBy: 14,
  fileType: 15,
  reference: 16,
  accountCode: 17,
  documentType: 18,
  status: 19,
  item: 20,
  quantity: 21,
  unitPrice: 22,
  notes: 23,
  recTitle: 30,
  recNumber: 31,
  retention: 32,
  recCreated: 33,
  owner: 34,
  recDateEntered: 35,
} as const;

/** The seed's field RegExes (regex.ts must be able to check each one). */
export const SEED_REGEXES = { accountCode: '(?#Account code must look like AB-1234)^[A-Z]{2}-\\d{4}$' } as const;
/** The fields' names; the seeded pages label their values with them too (document-pages.ts). */
export const FIELD_NAMES: Record<number, string> = {
  [F.title]: 'Title',
  [F.invoiceNumber]: 'Invoice Number',
  [F.documentDate]: 'Document Date',
  [F.amount]: 'Amount',
  [F.department]: 'Department',
  [F.customer]: 'Customer',
  [F.country]: 'Country',
  [F.region]: 'Region',
  [F.city]: 'City',
  [F.tags]: 'Tags',
  [F.dateEntered]: 'Date Entered',
  [F.indexedBy]: 'Indexed By',
  [F.pageCount]: 'Page Count',
  [F.lastModifiedBy]: 'Last Modified By',
  [F.fileType]: 'File Type',
  [F.reference]: 'Reference',
  [F.accountCode]: 'Account Code',
  [F.documentType]: 'Document Type',
  [F.status]: 'Status',
  [F.item]: 'Item',
  [F.quantity]: 'Quantity',
  [F.unitPrice]: 'Unit Price',
  [F.notes]: 'Notes',
  [F.recTitle]: 'Record Title',
  [F.recNumber]: 'Record Number',
  [F.retention]: 'Retention',
  [F.recCreated]: 'Created',
  [F.owner]: 'Owner',
  [F.recDateEntered]: 'Date Entered',
};

export const CUSTOMERS = [
  'Acme Corporation', 'Globex', 'Initech', 'Umbrella Trading', 'Stark Industries', 'Wayne Enterprises', 'Wonka Foods',
  'Tyrell Systems', 'Cyberdyne', 'Soylent Supply', 'Hooli', 'Vandelay Imports', 'Pied Piper', 'Monarch Logistics',
  'Aperture Labs', 'Black Mesa', 'Oscorp', 'Gringotts Finance', 'Dunder Mifflin', 'Sterling Cooper', 'Nakatomi Trading',
  'Massive Dynamic', 'Blue Sun', 'Weyland Yutani', 'Virtucon', 'Prestige Worldwide', 'Bluth Company', 'Los Pollos',
  'Krusty Krab', 'Gekko and Co', 'Oceanic Air', 'Duff Brewing', 'Kwik-E-Mart', 'Planet Express', 'MomCorp',
  'Spacely Sprockets', 'Cogswell Cogs', 'Rich Industries', 'Ollivanders', 'Zorg Industries',
];
export const DEPARTMENTS = ['Finance', 'HR', 'Legal', 'Sales', 'Operations', 'IT'];
export const DOCUMENT_TYPES = ['Invoice', 'Contract', 'Letter', 'Report', 'Receipt', 'Memo'];
export const STATUSES = ['New', 'Approved', 'Paid'];
export const CITIES: [string, string, string][] = [
  ['Boston', 'USA', 'East'], ['New York', 'USA', 'East'], ['Chicago', 'USA', 'Central'], ['Denver', 'USA', 'West'],
  ['Seattle', 'USA', 'West'], ['Toronto', 'Canada', 'East'], ['Montreal', 'Canada', 'East'], ['Vancouver', 'Canada', 'West'],
  ['Calgary', 'Canada', 'West'], ['Paris', 'France', 'North'], ['Lille', 'France', 'North'], ['Marseille', 'France', 'South'],
  ['Nice', 'France', 'South'], ['Berlin', 'Germany', 'North'], ['Hamburg', 'Germany', 'North'], ['Munich', 'Germany', 'South'],
];
export const TAGS = ['urgent', 'reviewed', 'archived', 'follow-up', 'confidential', 'draft'];

async function ins(db: Queryable, table: string, row: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(row).map(assertIdent);
  const ph = keys.map((_, i) => `$${i + 1}`);
  await db.query(`INSERT INTO ${assertIdent(table)} (${keys.join(', ')}) VALUES (${ph.join(', ')})`, Object.values(row));
}

export interface ArchiveSpec {
  id: number;
  db: number;
  fields: number[];
}

export const ARCHIVE_FIELDS: Record<number, number[]> = {
  1: [F.title, F.invoiceNumber, F.documentDate, F.amount, F.customer, F.department, F.status, F.accountCode, F.item, F.quantity, F.unitPrice, F.dateEntered, F.indexedBy, F.pageCount, F.lastModifiedBy, F.fileType, F.reference],
  2: [F.title, F.invoiceNumber, F.documentDate, F.amount, F.customer, F.department, F.status, F.dateEntered, F.pageCount, F.fileType],
  3: [F.title, F.documentDate, F.customer, F.department, F.documentType, F.notes, F.dateEntered, F.lastModifiedBy, F.pageCount, F.fileType, F.reference],
  4: [F.title, F.documentDate, F.customer, F.department, F.documentType, F.notes, F.dateEntered, F.lastModifiedBy, F.pageCount, F.fileType, F.reference],
  5: [F.title, F.documentDate, F.documentType, F.department, F.customer, F.country, F.region, F.city, F.tags, F.notes, F.dateEntered, F.indexedBy, F.pageCount, F.fileType],
  6: [F.title, F.documentDate, F.documentType, F.department, F.customer, F.country, F.region, F.city, F.tags, F.dateEntered, F.pageCount, F.fileType],
  7: [F.title, F.documentDate, F.documentType, F.department, F.customer, F.country, F.region, F.city, F.tags, F.dateEntered, F.pageCount, F.fileType],
  8: [F.title, F.documentDate, F.department, F.notes, F.dateEntered, F.pageCount, F.fileType],
  9: [F.recTitle, F.recNumber, F.retention, F.recCreated, F.owner, F.recDateEntered],
  10: [F.recTitle, F.recNumber, F.retention, F.recCreated, F.owner, F.recDateEntered],
};

export async function seedCatalog(db: Queryable, now: Date): Promise<void> {
  const I = SEED_IDS;
  await ins(db, 'databases', { id: I.db.demo, name: 'Demo Archive', catalog: 'demo', server: 'local', position: 1 });
  await ins(db, 'databases', { id: I.db.records, name: 'Records', catalog: 'records', server: 'local', position: 2 });

  // Users: name = password for the demo accounts.
  const users: [number, string, string, number, Record<string, boolean>][] = [
    [I.user.admin, 'admin', 'admin@example.com', 1, { is_user_admin: true, is_admin_all: true, is_product_user: true }],
    [I.user.user, 'user', 'user@example.com', 1, { is_product_user: true }],
    [I.user.viewer, 'viewer', 'viewer@example.com', 4, { is_external_user: true }],
    [I.user.kiosk, 'kiosk', 'kiosk@example.com', 1, {}],
    [I.user.clerk, 'clerk', 'clerk@example.com', 1, {}],
  ];
  for (const [id, name, email, licence, flags] of users) {
    await ins(db, 'users', { id, name, email, password_hash: await hashPassword(name), licence_type: licence, type: 2, created_at: now, ...flags });
  }
  for (const f of ['usr', 'gaw']) await ins(db, 'user_features', { user_id: I.user.admin, feature: f });
  await ins(db, 'user_features', { user_id: I.user.user, feature: 'gaw' });
  await ins(db, 'groups', { id: I.group.administrators, name: 'Administrators', description: 'Administrators of every database', is_admin_group: true });
  await ins(db, 'groups', { id: I.group.staff, name: 'Staff', description: 'Everyone working with documents' });
  await ins(db, 'group_members', { group_id: I.group.administrators, user_id: I.user.admin });
  for (const u of [I.user.user, I.user.viewer, I.user.kiosk, I.user.clerk]) await ins(db, 'group_members', { group_id: I.group.staff, user_id: u });
  await ins(db, 'database_admins', { database_id: I.db.demo, user_id: I.user.admin });
  await ins(db, 'database_admins', { database_id: I.db.records, user_id: I.user.admin });
  await ins(db, 'delegation_rights', { database_id: I.db.demo, user_id: I.user.user, permissions: RIGHTS.view | RIGHTS.edit, active: false });
  await ins(db, 'delegates', { database_id: I.db.demo, user_id: I.user.user, delegate_user_id: I.user.kiosk, delegate_email: 'kiosk@example.com', permissions: RIGHTS.view, active: false });

  // Licence rules: the four built-ins and a one-seat user rule for the kiosk account.
  const rule = (iid: number, name: string, type: number, seats: number | null, extra: Record<string, unknown> = {}) =>
    ins(db, 'licence_rules', { iid, name, type, seats, max_time: 8, max_time_type: 1, max_time_last_accessed: 15, max_time_last_accessed_type: 0, builtin: true, ...extra });
  await rule(I.rule.default, 'Default', 0, 1000);
  await rule(I.rule.full, 'Full License', 4, 1000);
  await rule(I.rule.webFull, 'Web-Only Full License', 8, 1000);
  await rule(I.rule.webReadOnly, 'Web-Only Read Only License', 16, 1000);
  await rule(I.rule.kiosk, 'Kiosk (one seat)', 1, 1, { user_id: I.user.kiosk, builtin: false });

  // Lists: fixed, type-ahead, dynamic.
  const list = async (id: number, dbId: number, name: string, kind: number, values: string[]) => {
    await ins(db, 'lists', { id, database_id: dbId, name, kind });
    for (let i = 0; i < values.length; i++) await ins(db, 'list_values', { list_id: id, position: i, value: values[i] });
  };
  await list(I.list.departments, I.db.demo, 'Departments', 0, DEPARTMENTS);
  await list(I.list.customers, I.db.demo, 'Customers', 1, CUSTOMERS);
  await list(I.list.cities, I.db.demo, 'Cities', 2, []);
  for (const [city, country, region] of CITIES) await ins(db, 'dynamic_list_rows', { list_id: I.list.cities, value: city, filter1: country, filter2: region });
  await list(I.list.documentTypes, I.db.demo, 'Document Types', 0, DOCUMENT_TYPES);
  await list(I.list.retention, I.db.records, 'Retention', 0, ['1 year', '5 years', '10 years', 'Permanent']);

  // Fields: every type and every Prop flag the spec names.
  await ins(db, 'table_fields', { id: 1, database_id: I.db.demo, name: 'Line Items' });
  const field = (id: number, type: number, extra: Record<string, unknown> = {}) => ins(db, 'fields', { id, database_id: extra.database_id ?? I.db.demo, name: FIELD_NAMES[id], type, ...extra });
  await field(F.title, 1, { size: 100, prop: 2 });
  await field(F.invoiceNumber, 2, { size: 19 });
  await field(F.documentDate, 3, { mask: 'MM/dd/yyyy' });
  await field(F.amount, 4, { size: 18, mask: 'C2' });
  await field(F.department, 1, { prop: 64, list_id: I.list.departments });
  await field(F.customer, 1, { list_id: I.list.customers });
  await field(F.country, 1, { size: 30 });
  await field(F.region, 1, { size: 30 });
  await field(F.city, 1, { size: 40, prop: 128, list_id: I.list.cities, list_f1: F.country, list_f2: F.region });
  await field(F.tags, 1, { size: 30, prop: 32, multi_value: true });
  await field(F.dateEntered, 3, { prop: 4, mask: 'd' });
  await field(F.indexedBy, 1, { prop: 8 });
  await field(F.pageCount, 2, { prop: 16 });
  await field(F.lastModifiedBy, 1, { prop: 256 });
  await field(F.fileType, 1, { size: 10, prop: 1024 });
  await field(F.reference, 1, { size: 20, prop: 2048 });
  await field(F.accountCode, 1, { size: 7, regex: SEED_REGEXES.accountCode, extended_config: { useRegExValidation: true } });
  await field(F.documentType, 1, { prop: 64, list_id: I.list.documentTypes });
  await field(F.status, 1, { size: 20 });
  await field(F.item, 1, { parent_id: 1, multi_value: true });
  await field(F.quantity, 2, { parent_id: 1, multi_value: true, extended_config: { min: 1, max: 1000 } });
  await field(F.unitPrice, 4, { parent_id: 1, multi_value: true, mask: 'C2' });
  await field(F.notes, 1, { size: 500 });
  await field(F.recTitle, 1, { database_id: I.db.records, size: 100, prop: 2 });
  await field(F.recNumber, 2, { database_id: I.db.records });
  await field(F.retention, 1, { database_id: I.db.records, prop: 64, list_id: I.list.retention });
  await field(F.recCreated, 3, { database_id: I.db.records, mask: 'yyyy-MM-dd' });
  await field(F.owner, 1, { database_id: I.db.records });
  await field(F.recDateEntered, 3, { database_id: I.db.records, prop: 4 });

  // Archives and sub-archives. Props: 1 revision control, 4 web revision, 16 versions archive.
  const A = I.archive;
  const statusViews = { enabled: true, statusField: F.status, values: [{ label: 'New', value: 'New', color: '#1e88e5' }, { label: 'Approved', value: 'Approved', color: '#fb8c00' }, { label: 'Paid', value: 'Paid', color: '#43a047' }] };
  // The demo's amounts are US dollars, whatever language a user reads them in.
  const archive = (id: number, dbId: number, name: string, extra: Record<string, unknown> = {}) => ins(db, 'archives', { id, database_id: dbId, name, position: id, country: 'US', ...extra });
  await archive(A.invoices, I.db.demo, 'Invoices', { content_search: true, views: statusViews, notifications: { to: 'finance@example.com', from: 'archive@example.com', subject: 'New invoice', message: 'Invoice [Invoice Number] was added.' }, base_path: 'invoices' });
  await archive(A.paidInvoices, I.db.demo, 'Paid Invoices', { parent_id: A.invoices, content_search: true });
  await archive(A.contracts, I.db.demo, 'Contracts', { props: 1 | 4, convert_pdf: true });
  await archive(A.contractVersions, I.db.demo, 'Contract Versions', { parent_id: A.contracts, props: 16 });
  await db.query('UPDATE archives SET versions_archive_id = $1 WHERE id = $2', [A.contractVersions, A.contracts]);
  await archive(A.correspondence, I.db.demo, 'Correspondence', { content_search: true, folder_options: 1 });
  await archive(A.incoming, I.db.demo, 'Incoming', { parent_id: A.correspondence, content_search: true });
  await archive(A.outgoing, I.db.demo, 'Outgoing', { parent_id: A.correspondence, content_search: true });
  await archive(A.hrFiles, I.db.demo, 'HR Files', {});
  await archive(A.records, I.db.records, 'Records Management', {});
  await archive(A.retained, I.db.records, 'Retained', { parent_id: A.records });
  for (const [archiveId, fieldIds] of Object.entries(ARCHIVE_FIELDS)) {
    for (let i = 0; i < fieldIds.length; i++) await ins(db, 'archive_fields', { archive_id: Number(archiveId), field_id: fieldIds[i], position: i });
  }

  // Permissions: the user sees every demo archive except HR Files, and Records read-only.
  const perm = (archiveId: number, who: { user_id?: number; group_id?: number }, rights: number) => ins(db, 'archive_permissions', { archive_id: archiveId, ...who, rights });
  for (const a of [A.invoices, A.paidInvoices, A.contracts, A.contractVersions, A.correspondence, A.incoming, A.outgoing]) await perm(a, { user_id: I.user.user }, FULL_RIGHTS);
  await perm(A.records, { user_id: I.user.user }, READ_RIGHTS);
  await perm(A.retained, { user_id: I.user.user }, READ_RIGHTS);
  // The viewer reads but may not take files away (no export, 128) by its own rights; in Correspondence
  // the staff group still grants it, so both cases exist for the export tests.
  for (const a of [A.invoices, A.paidInvoices, A.correspondence]) await perm(a, { user_id: I.user.viewer }, READ_RIGHTS & ~RIGHTS.export);
  await perm(A.invoices, { user_id: I.user.kiosk }, FULL_RIGHTS);
  // A full licence that may copy and edit but neither delete (8), move (131072) nor annotate (2048) documents.
  for (const a of [A.invoices, A.paidInvoices, A.correspondence, A.incoming, A.outgoing]) await perm(a, { user_id: I.user.clerk }, FULL_RIGHTS & ~(RIGHTS.delete | RIGHTS.move | RIGHTS.annotations));
  await perm(A.correspondence, { group_id: I.group.staff }, READ_RIGHTS);
  for (const a of Object.values(A)) await perm(a, { group_id: I.group.administrators }, FULL_RIGHTS);

  // Saved searches. Props: 1 content search, 32 view tabs. Settings: 4 shown in list, 8 default.
  // Prompt conditions: Contains, Equals, IsEmpty, IsNotEmpty, Range (MVAL [from, to]). A prompt
  // with no field (type 0) is the content-search text (src/api/search.ts SearchCondition).
  const S = I.search;
  const search = async (id: number, dbId: number, name: string, archives: number[], extra: Record<string, unknown>, items: Record<string, unknown>[] = []) => {
    await ins(db, 'searches', { id, database_id: dbId, name, hash: `s${dbId}-${id}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, position: id, ...extra });
    for (let i = 0; i < archives.length; i++) await ins(db, 'search_archives', { search_id: id, archive_id: archives[i], position: i });
    for (let i = 0; i < items.length; i++) await ins(db, 'search_items', { search_id: id, position: i, ...items[i] });
  };
  await search(S.allInvoices, I.db.demo, 'All Invoices', [A.invoices, A.paidInvoices], { settings: 4 | 8, icon: 'receipt_long' }, [
    { field_id: F.title, prompt: 'Title', type: 1, condition: 'Contains' },
    { field_id: F.invoiceNumber, prompt: 'Invoice Number', type: 2, condition: 'Equals' },
    { field_id: F.invoiceNumber, prompt: 'Invoice Number between', type: 2, condition: 'Range', mval: ['', ''] },
    { field_id: F.documentDate, prompt: 'Document Date', type: 3, condition: 'Range', mval: ['', ''] },
    { field_id: F.amount, prompt: 'Amount between', type: 4, condition: 'Range', mval: ['', ''] },
    { field_id: F.customer, prompt: 'Customer', type: 1, condition: 'Contains', list_id: I.list.customers },
    { field_id: F.department, prompt: 'Department', type: 1, condition: 'Equals', list_id: I.list.departments, prop: 64 },
    { field_id: F.status, prompt: 'Status', type: 1, condition: 'Equals' },
  ]);
  await search(S.contentSearch, I.db.demo, 'Content Search', [A.invoices, A.correspondence, A.incoming, A.outgoing], { props: 1, settings: 4, icon: 'manage_search', content_search_options: { phonics: false, stemming: true, fuzziness: 0 } }, [
    { field_id: null, prompt: 'Search text', type: 0, condition: 'Contains' },
    { field_id: F.title, prompt: 'Title', type: 1, condition: 'Contains' },
  ]);
  await search(S.invoicesByStatus, I.db.demo, 'Invoices by Status', [A.invoices], { props: 32, settings: 4, icon: 'view_week' }, [
    { field_id: F.customer, prompt: 'Customer', type: 1, condition: 'Contains', list_id: I.list.customers },
  ]);
  const tabs: [string, string, string][] = [['All', '#757575', ''], ['New', '#1e88e5', 'New'], ['Approved', '#fb8c00', 'Approved'], ['Paid', '#43a047', 'Paid']];
  for (let i = 0; i < tabs.length; i++) {
    const [label, color, value] = tabs[i] as [string, string, string];
    await ins(db, 'search_view_tabs', { search_id: S.invoicesByStatus, label, color, value, position: i });
  }
  await search(S.contracts, I.db.demo, 'Contracts', [A.contracts], { settings: 4, icon: 'gavel' }, [
    { field_id: F.title, prompt: 'Title', type: 1, condition: 'Contains' },
    { field_id: F.documentType, prompt: 'Document Type', type: 1, condition: 'Equals', list_id: I.list.documentTypes, prop: 64 },
    { field_id: F.notes, prompt: 'Has notes', type: 1, condition: 'IsNotEmpty' },
  ]);
  await search(S.correspondence, I.db.demo, 'Correspondence', [A.correspondence, A.incoming, A.outgoing], { settings: 4, icon: 'mail', multi_value: true }, [
    { field_id: F.country, prompt: 'Country', type: 1, condition: 'Equals' },
    { field_id: F.region, prompt: 'Region', type: 1, condition: 'Equals' },
    { field_id: F.city, prompt: 'City', type: 1, condition: 'Equals', list_id: I.list.cities, prop: 128 },
    { field_id: F.tags, prompt: 'Tag', type: 1, condition: 'Equals', prop: 32 },
    { field_id: F.notes, prompt: 'Without notes', type: 1, condition: 'IsEmpty' },
  ]);
  // Two archives whose prompts share their text ("Customer", "Document Date"): the client collapses them into one.
  await search(S.customerFiles, I.db.demo, 'Customer Files', [A.invoices, A.contracts], { settings: 4, icon: 'folder_shared' }, [
    { field_id: F.customer, prompt: 'Customer', type: 1, condition: 'Equals', list_id: I.list.customers },
    { field_id: F.documentDate, prompt: 'Document Date', type: 3, condition: 'Range', mval: ['', ''] },
    { field_id: F.customer, prompt: 'Customer', type: 1, condition: 'Equals', list_id: I.list.customers },
    { field_id: F.documentDate, prompt: 'Document Date', type: 3, condition: 'Range', mval: ['', ''] },
    { field_id: F.documentType, prompt: 'Document Type', type: 1, condition: 'Equals', list_id: I.list.documentTypes, prop: 64 },
  ]);
  await search(S.hidden, I.db.demo, 'Maintenance (hidden)', [A.invoices, A.contracts], { settings: 0, icon: 'build' }, [{ field_id: F.reference, prompt: 'Reference', type: 1, condition: 'Equals' }]);
  await search(S.hr, I.db.demo, 'HR Files', [A.hrFiles], { settings: 4, icon: 'badge' }, [{ field_id: F.title, prompt: 'Title', type: 1, condition: 'Contains' }]);
  await search(S.records, I.db.records, 'Records', [A.records, A.retained], { settings: 4 | 8, icon: 'inventory_2' }, [
    { field_id: F.recTitle, prompt: 'Record Title', type: 1, condition: 'Contains' },
    { field_id: F.retention, prompt: 'Retention', type: 1, condition: 'Equals', list_id: I.list.retention, prop: 64 },
  ]);

  // Inboxes (files are added with the documents).
  await ins(db, 'inboxes', { id: I.inbox.scans, name: 'Scans', unique_name: 'scans', base_path: 'inboxes/scans', database_id: I.db.demo });
  await ins(db, 'inboxes', { id: I.inbox.mailroom, name: 'Mailroom', unique_name: 'mailroom', base_path: 'inboxes/mailroom', database_id: I.db.demo });
  for (const u of [I.user.user, I.user.kiosk]) {
    await ins(db, 'inbox_permissions', { inbox_id: I.inbox.scans, user_id: u, rights: 1 | 4 });
    await ins(db, 'inbox_permissions', { inbox_id: I.inbox.mailroom, user_id: u, rights: 1 | 4 });
  }
  await ins(db, 'inbox_permissions', { inbox_id: I.inbox.scans, user_id: I.user.viewer, rights: 1 });
  await ins(db, 'inbox_permissions', { inbox_id: I.inbox.scans, group_id: I.group.administrators, rights: 1 | 4 });
  await ins(db, 'inbox_permissions', { inbox_id: I.inbox.mailroom, group_id: I.group.administrators, rights: 1 | 4 });

  for (const text of ['APPROVED', 'RECEIVED @Today', 'Reviewed by @User', 'PAID', 'CONFIDENTIAL']) await ins(db, 'stamps', { text });
  await ins(db, 'advanced_links', { database_id: I.db.demo, archive_id: A.invoices, field_id: F.customer, name: 'Customer in CRM', url_pattern: 'https://crm.example.com/search?q={Customer}&doc={DocumentID}&archive={ArchiveID}' });
  await ins(db, 'advanced_links', { database_id: I.db.demo, archive_id: A.contracts, field_id: null, name: 'Contract register', url_pattern: 'https://register.example.com/contracts/{DocumentID}?archive={ArchiveID}&title={Title}&type={Document Type}' });
  await ins(db, 'dxc_sources', { archive_id: A.invoices, name: 'ERP invoices', connection_string: 'Server=erp.example.com;Database=erp', mapping: [{ archiveField: F.invoiceNumber, mappedField: 'INVOICE_NO', required: true }, { archiveField: F.customer, mappedField: 'CUSTOMER_NAME', required: false }] });
  await ins(db, 'registration', { id: 1, data: { Company: 'Demo Company', Serial: 'DEMO-0000-0000', Seats: 1000 }, updated_at: now });
  for (const code of ['MDB', 'usr', 'gaw', 'capture', 'workflow']) await ins(db, 'features', { code, enabled: true });
  await ins(db, 'settings', { key: 'inboxOptions', value: { allowDelete: true, defaultInbox: I.inbox.scans } });
  await ins(db, 'settings', { key: 'email', value: { port: 25, host: 'localhost', from: 'archive@example.com' } });
}
