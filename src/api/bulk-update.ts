import * as z from 'zod/mini';
import { JobReasonWords } from './jobs';

/**
 * Bulk update (the user-app spec §2 bulk update dialogs and update-count confirmation, §3 Bulk update, §4
 * "choose basic or advanced, count affected documents, confirm in the update-count dialog, run", §5,
 * §7 Update and Count). The spec runs these through the local helper and does not show their server
 * paths; here they are server calls named after the helper's, under POST api/dbs/{db}/bulkupdate/:
 *
 *   Count (nothing changes; a dry run: the count and the first changes, BulkUpdateCount):
 *     BasicSearchCount       body BasicBulkUpdate            basic: new values over the search or the checked documents
 *     CSVUpdateCount         body CsvBulkUpdate              CSV rows by DocumentID/ArchiveID
 *     BulkUpdateSearchCount  body CsvBulkUpdate (+ search)   CSV rows, each a search (prompt values) and its data
 *   Update (writes ONE server job of kind 'bulk-update', one item a document; BulkUpdateAccepted):
 *     UserPassedBulkUpdateSearch  body BasicBulkUpdate, UpdateType 'simple' (every result of the search)
 *     UserPassedUpdateSearch      body BasicBulkUpdate, UpdateType 'documentSelectUpdate' (Docs)
 *     BulkUpdateDirect            body CsvBulkUpdate (the rows staged under Key)
 *     BulkUpdateSearch            body CsvBulkUpdate (+ search)
 *   Rows of a CSV update (staged before the count, so count and update read the same rows):
 *     rows                   body CsvRowBatch -> CsvRowsReceived
 *
 * A CSV of 100,000 rows is not sent as one JSON body: the client posts it in batches of at most
 * BULK_UPDATE_BATCH_ROWS rows (Index numbers the batch; a repeated batch replaces nothing), under a
 * Key of its choosing; the count and the update name that Key and the row total, and are refused
 * (409 BULK_UPDATE_ROWS_MISSING) until every row has arrived. The rows are kept on the server until
 * the update takes them, or for BULK_UPDATE_ROWS_KEEP_HOURS.
 *
 * The count and the job judge a document the same way (server/services/bulk-update.ts planDocument):
 * the new values are checked with the shared field rules (src/fields/rules.ts) and list membership; a
 * document changes when a value differs from the stored one. Refused: the read-only licence (403),
 * a revision-control archive (400 ERROR_UPDATE_REVISION_ARCHIVE for a basic update; the row for a
 * CSV one), an archive without edit (1024). Each refused document is 'DocID {id}: reason'.
 * The job is for the documents the count says change (its Count), judged again when the update is
 * accepted: documents that already hold the values or are refused take no part in it, so "1 document
 * will be updated" is a job of 1.
 */

export const BULK_UPDATE_JOB_KIND = 'bulk-update';
/** Rows in one batch of a CSV update. */
export const BULK_UPDATE_BATCH_ROWS = 2_000;
/** At most this many rows (documents, or searches for a search update) in one bulk update. */
export const BULK_UPDATE_MAX_ROWS = 200_000;
/** The first changes a count lists unless Limit says otherwise (at most BULK_UPDATE_MAX_LIMIT). */
export const BULK_UPDATE_DRY_RUN_LIMIT = 20;
export const BULK_UPDATE_MAX_LIMIT = 1_000;
export const BULK_UPDATE_ROWS_KEEP_HOURS = 24;
/** the user-app spec §8 "Other keys". */
export const UPDATE_REVISION_ARCHIVE_KEY = 'ERROR_UPDATE_REVISION_ARCHIVE';
export const CSV_UPDATE_DIRECT_SEARCH_REQUIRED_KEY = 'ERROR_CSV_UPDATE_DIRECT_SEARCH_REQUIRED';
export const BULK_UPDATE_ROWS_MISSING_KEY = 'BULK_UPDATE_ROWS_MISSING';

export const UPDATE_TYPES = ['simple', 'documentSelectUpdate'] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];

/** One field's new value (wire form: dates yyyy-mm-dd, decimals with '.'); MVAL for multi-value fields. */
export const BulkValue = z.object({
  ID: z.int().check(z.positive()),
  VAL: z.optional(z.string()),
  MVAL: z.optional(z.array(z.string())),
});
export type BulkValue = z.infer<typeof BulkValue>;

const Doc = z.object({ ArchiveID: z.int().check(z.positive()), DocID: z.int().check(z.positive()) });

/** A basic update: new values for chosen fields, over the search's results or the checked documents. */
export const BasicBulkUpdate = z.object({
  DatabaseID: z.int(),
  ArchiveID: z.int().check(z.positive()),
  SearchID: z.int().check(z.positive()),
  /** The search as the grid ran it (SearchCriteria). */
  SearchInfo: z.object({ SearchCriteria: z.optional(z.string()) }),
  UpdateType: z.enum(UPDATE_TYPES),
  /** The checked documents (documentSelectUpdate). */
  Docs: z.optional(z.array(Doc).check(z.maxLength(BULK_UPDATE_MAX_ROWS))),
  Values: z.array(BulkValue).check(z.minLength(1), z.maxLength(200)),
  /** Count calls: how many changes to list (default BULK_UPDATE_DRY_RUN_LIMIT). */
  Limit: z.optional(z.int().check(z.minimum(0), z.maximum(BULK_UPDATE_MAX_LIMIT))),
});
export type BasicBulkUpdate = z.infer<typeof BasicBulkUpdate>;

/** One row of a CSV update: a document (direct) or a search's prompt values (search update), and its values. */
export const CsvRow = z.object({
  DocID: z.optional(z.int().check(z.positive())),
  ArchiveID: z.optional(z.int().check(z.positive())),
  /** Search update: the row's SearchCriteria (the mapped prompt columns). */
  Criteria: z.optional(z.string()),
  Values: z.array(BulkValue).check(z.maxLength(200)),
  /** The row's line in the user's file, for 'DocID {id}: reason' and the error file. */
  Line: z.optional(z.int()),
  /** Import (src/api/import.ts): the index of the row's document file in ImportRequest.Files. */
  File: z.optional(z.int().check(z.nonnegative())),
});
export type CsvRow = z.infer<typeof CsvRow>;

export const CsvRowBatch = z.object({
  Key: z.string().check(z.minLength(8), z.maxLength(80)),
  /** 0, 1, 2 ... : the batch's rows are rows Index * BULK_UPDATE_BATCH_ROWS onwards. */
  Index: z.int().check(z.minimum(0)),
  Total: z.int().check(z.minimum(1), z.maximum(BULK_UPDATE_MAX_ROWS)),
  Rows: z.array(CsvRow).check(z.minLength(1), z.maxLength(BULK_UPDATE_BATCH_ROWS)),
});
export type CsvRowBatch = z.infer<typeof CsvRowBatch>;
export const CsvRowsReceived = z.looseObject({ Received: z.int(), Total: z.int() });
export type CsvRowsReceived = z.infer<typeof CsvRowsReceived>;

/** A CSV update: the staged rows (Key, Total), the mapping the user chose (ReplaceInfo, FieldID to ColumnID). */
export const CsvBulkUpdate = z.object({
  DatabaseID: z.int(),
  Key: z.string().check(z.minLength(8), z.maxLength(80)),
  Total: z.int().check(z.minimum(1), z.maximum(BULK_UPDATE_MAX_ROWS)),
  ReplaceInfo: z.optional(z.array(z.object({ FieldID: z.int(), ColumnID: z.int() }))),
  /** Search update: the search whose prompts the rows fill, and its archive. */
  SearchID: z.optional(z.int().check(z.positive())),
  ArchiveID: z.optional(z.int().check(z.positive())),
  Limit: z.optional(z.int().check(z.minimum(0), z.maximum(BULK_UPDATE_MAX_LIMIT))),
});
export type CsvBulkUpdate = z.infer<typeof CsvBulkUpdate>;

/**
 * One value the update would change (dry run) on one document. Name: the document as the grid names
 * it (src/fields/document-label.ts, the archive's fields in their order), '' when it has no name.
 */
export const BulkChange = z.looseObject({ DocID: z.int(), ArchiveID: z.int(), FieldID: z.int(), Old: z.string(), New: z.string(), Name: z.optional(z.string()) });
export type BulkChange = z.infer<typeof BulkChange>;
export const BulkRefusal = z.looseObject({ DocID: z.int(), Reason: z.string(), Key: z.optional(z.string()), Line: z.optional(z.int()), Message: z.string(), ReasonWords: z.optional(JobReasonWords) });
export type BulkRefusal = z.infer<typeof BulkRefusal>;

/** A count's answer: Count documents would change; Unchanged already hold the values; Refused cannot be updated. */
export const BulkUpdateCount = z.looseObject({
  Count: z.int(),
  Documents: z.int(),
  Unchanged: z.int(),
  RefusedCount: z.int(),
  /** The first changes, in the order the job will make them. */
  Changes: z.array(BulkChange),
  /** The first refusals. */
  Refused: z.array(BulkRefusal),
});
export type BulkUpdateCount = z.infer<typeof BulkUpdateCount>;

export const BulkUpdateAccepted = z.looseObject({ JobId: z.int(), State: z.string(), Count: z.int() });
export type BulkUpdateAccepted = z.infer<typeof BulkUpdateAccepted>;

export const BULK_COUNT_CALLS = ['BasicSearchCount', 'CSVUpdateCount', 'BulkUpdateSearchCount'] as const;
export const BULK_UPDATE_CALLS = ['UserPassedBulkUpdateSearch', 'UserPassedUpdateSearch', 'BulkUpdateDirect', 'BulkUpdateSearch'] as const;
export type BulkCountCall = (typeof BULK_COUNT_CALLS)[number];
export type BulkUpdateCall = (typeof BULK_UPDATE_CALLS)[number];

export const bulkUpdatePaths = {
  call: (db: number, call: BulkCountCall | BulkUpdateCall | 'rows') => `/api/dbs/${db}/bulkupdate/${call}`,
} as const;

/** The spec's wording of one refused document (the archive-ops spec §8). */
export const bulkRefusalMessage = (docId: number, reason: string): string => `DocID ${docId}: ${reason}`;
