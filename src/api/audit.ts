import * as z from 'zod/mini';

/** Histories (the user-app spec §3, §7; the archive-ops spec §3, §4, §7). */
export const HISTORY_CATEGORIES = [
  'annotation', 'appended', 'checked in/out', 'converted', 'copied', 'deleted', 'email', 'exported',
  'indexed', 'moved', 'printed', 'published/unpublished', 'updated', 'viewed', 'version',
] as const;
/** One of the spec's history categories; the filter of the document history panel. */
export const HistoryCategory = z.enum(HISTORY_CATEGORIES);
export type HistoryCategory = z.infer<typeof HistoryCategory>;

/** Date-time on the wire: ISO 8601 with time zone, e.g. 2026-01-05T09:00:00.000Z. */
const IsoTime = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/));

export const HistoryItem = z.looseObject({ Time: z.string() });

/**
 * What a history entry says, in parts (the archive-ops spec §3-4 histories), so that the client
 * writes the sentence in the user's language; Message stays the server's English sentence for older
 * clients and for a Kind this client does not know. Kinds the reference server sends:
 * HISTORY_EVENT_KINDS. The other members are the kind's parts: Changes (fields-changed: field name,
 * old and new wire value, '' for empty), Page, Count (pages), Version, Stamp, Address, Inbox, Archive,
 * Angle (page-rotated: degrees clockwise).
 * page-appended (from an inbox): Inbox and Count = the document's pages now; document-appended (the
 * pages of another archive document, merge's Append): Count = the pages added.
 */
export const HISTORY_EVENT_KINDS = [
  'indexed', 'moved-from-parent', 'version-checked-in', 'viewed', 'fields-changed', 'index-updated', 'annotation-added',
  'stamp-applied', 'exported', 'exported-pdf', 'exported-csv', 'printed', 'emailed', 'attached-to-email', 'notification-sent',
  'checked-out', 'checked-in', 'converted-pdf', 'published', 'unpublished', 'page-appended', 'page-deleted', 'copied-to',
  'page-replaced', 'copied-from', 'moved-from', 'document-deleted', 'document-appended',
  'page-rotated', 'annotation-changed', 'annotation-deleted',
] as const;
export type HistoryEventKind = (typeof HISTORY_EVENT_KINDS)[number];
export const FieldChange = z.looseObject({ Field: z.string(), Old: z.string(), New: z.string() });
export type FieldChange = z.infer<typeof FieldChange>;
export const HistoryEvent = z.looseObject({
  // A string, not the enum: a newer server may send kinds this client does not know (it shows Message).
  Kind: z.string(),
  Changes: z.optional(z.array(FieldChange)),
  Page: z.optional(z.int()),
  Count: z.optional(z.int()),
  Version: z.optional(z.string()),
  Stamp: z.optional(z.string()),
  Address: z.optional(z.string()),
  Inbox: z.optional(z.string()),
  Archive: z.optional(z.string()),
  /** page-rotated: degrees clockwise. */
  Angle: z.optional(z.int()),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

/**
 * Audit entry (the archive-ops spec §3): one item of a document's history.
 * GET api/dbs/{db}/archives/{a}/documents/{doc}/audit?SecureId= answers DocumentHistory, newest
 * first. Needs archive permission bit 512 (history); SecureId must be the document's Hash.
 * OldArchiveID/OldDocID are set for moved and copied entries (where the document came from).
 */
export const AuditEntry = z.extend(HistoryItem, {
  Time: IsoTime,
  Message: z.string(),
  Category: HistoryCategory,
  UserName: z.nullable(z.string()),
  ArchiveID: z.nullable(z.int()),
  DatabaseID: z.nullable(z.int()),
  DocumentID: z.nullable(z.int()),
  OldArchiveID: z.nullable(z.int()),
  OldDocID: z.nullable(z.int()),
  Event: z.nullish(HistoryEvent),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const DocumentHistory = z.array(AuditEntry);
export type DocumentHistory = z.infer<typeof DocumentHistory>;

/** One line of an archive's history. */
export const ArchiveHistoryItem = z.looseObject({
  Date: IsoTime,
  Message: z.string(),
  Category: HistoryCategory,
  UserName: z.nullable(z.string()),
  DocumentID: z.nullable(z.int()),
  Event: z.nullish(HistoryEvent),
});
export type ArchiveHistoryItem = z.infer<typeof ArchiveHistoryItem>;

/**
 * GET api/dbs/{db}/archives/{a}/audit?Page=&DocLimit= : the archive's history (its own documents),
 * newest first. Page is 1-based (default 1); DocLimit is the page size (default 25 = HISTORY_PAGE_SIZE,
 * 1..1000). Total counts every entry; a Page past the end answers Items [] with the same Total.
 * Needs archive permission bit 512.
 */
export const ArchiveHistory = z.looseObject({ Total: z.int(), Items: z.array(ArchiveHistoryItem) });
export type ArchiveHistory = z.infer<typeof ArchiveHistory>;

export const auditPaths = {
  /** GET with token, SecureId. */
  document: (db: number, archive: number, doc: number) => `/api/dbs/${db}/archives/${archive}/documents/${doc}/audit`,
  /** GET with Page, DocLimit, Token. */
  archive: (db: number, archive: number) => `/api/dbs/${db}/archives/${archive}/audit`,
} as const;
