import * as z from 'zod/mini';
import { JobNote } from './export';

/**
 * Server jobs (the user-app spec §2 notifications menu, §3 job notes, §4 group jobs; the archive-ops spec §4,
 * §8 'DocID {id}: reason'). Long work (copy, move and delete groups today; export, bulk update and
 * import later) runs on the server as a job in the `jobs` table, worked by any server process.
 *
 *   GET    api/jobs        -> JobList: the signed-in user's jobs, newest first (at most JOB_LIST_LIMIT),
 *                             without their Failures and Results lists (ask the job for those).
 *   GET    api/jobs/{id}   -> Job: state, progress, counts, each failure; with ?Results=true also each
 *                             handled document (Results; large for a big job, so only when asked).
 *   DELETE api/jobs/{id}   -> Job: cancelled (documents already handled stay handled; the rest are
 *                             not touched). A job that has ended answers as it is.
 * A job is seen and cancelled only by the user who started it: anyone else gets 404 (as if it did
 * not exist). Unknown id: 404 ERROR_NOT_FOUND.
 */

/** queued: waiting for a server process; running: being worked; the others are final. */
export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStateName = (typeof JOB_STATES)[number];
export const FINAL_JOB_STATES: readonly JobStateName[] = ['done', 'failed', 'cancelled'];
export const isFinalJobState = (s: JobStateName): boolean => FINAL_JOB_STATES.includes(s);

/** What a job does. copy/move/delete: a group of the per-document calls (documentPaths.operation); export: src/api/export.ts. */
export const JOB_KINDS = ['copy', 'move', 'delete'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** An export job (src/api/export.ts): one file made of many documents, fetched when done. */
export const EXPORT_JOB_KIND = 'export';

export const JOB_LIST_LIMIT = 100;

/**
 * Why a document (or an import's row) failed, as a message key and its parts, so the client says it in
 * the user's language; Reason and Message stay the server's English (and what older servers send).
 * Params.rule, when present, is itself a message key (a field rule's, e.g. FIELD_INVALID_DATE) that
 * the client words first.
 */
export const JobReasonWords = z.looseObject({
  Key: z.string(),
  Params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});
export type JobReasonWords = z.infer<typeof JobReasonWords>;

/** The reasons a job gives, by key (their words: public/languages, one key each). */
export const JOB_REASON_KEYS = {
  notFound: 'JOB_REASON_NOT_FOUND',
  notInArchive: 'JOB_REASON_NOT_IN_ARCHIVE',
  revisionArchive: 'JOB_REASON_REVISION_ARCHIVE',
  noEditRight: 'JOB_REASON_NO_EDIT_RIGHT',
  noAddRight: 'JOB_REASON_NO_ADD_RIGHT',
  versionsArchive: 'JOB_REASON_VERSIONS_ARCHIVE',
  checkedOut: 'JOB_REASON_CHECKED_OUT',
  notAField: 'JOB_REASON_NOT_A_FIELD',
  readOnlyField: 'JOB_REASON_READ_ONLY_FIELD',
  fieldRule: 'JOB_REASON_FIELD_RULE',
  fileMissing: 'JOB_REASON_FILE_MISSING',
  serverFailed: 'JOB_REASON_SERVER_FAILED',
  ownerGone: 'JOB_REASON_OWNER_GONE',
  destinationGone: 'JOB_REASON_DESTINATION_GONE',
  archiveGone: 'JOB_REASON_ARCHIVE_GONE',
  inDestination: 'JOB_REASON_IN_DESTINATION',
  readOnlyLicence: 'JOB_REASON_READ_ONLY_LICENCE',
  secureId: 'JOB_REASON_SECURE_ID',
  noDeleteRight: 'JOB_REASON_NO_DELETE_RIGHT',
  noMoveRight: 'JOB_REASON_NO_MOVE_RIGHT',
  noViewRight: 'JOB_REASON_NO_VIEW_RIGHT',
} as const;

/** One document the job could not handle. Message is the spec's 'DocID {id}: reason'. */
export const JobFailure = z.looseObject({
  DocID: z.int(),
  ArchiveID: z.int(),
  /** Why, in the server's words (e.g. 'You do not have permission to move documents of this archive'). */
  Reason: z.string(),
  /** The error key when there is one (ERROR_FAILED_DUE_TO_PERMISSIONS, ERROR_NOT_FOUND, ...). */
  Key: z.optional(z.string()),
  /** An import's failed row (src/api/import.ts): its line in the user's CSV (DocID is then 0). */
  Line: z.optional(z.int()),
  Message: z.string(),
  /** Reason as a key and its parts (newer servers); the client words 'DocID {id}: reason' from it. */
  ReasonWords: z.optional(JobReasonWords),
});
export type JobFailure = z.infer<typeof JobFailure>;

/** A document the job handled; NewDocID is the copy's (or the moved document's new) id. */
export const JobResult = z.looseObject({
  DocID: z.int(),
  ArchiveID: z.int(),
  NewDocID: z.optional(z.int()),
  NewArchiveID: z.optional(z.int()),
});
export type JobResult = z.infer<typeof JobResult>;

export const Job = z.looseObject({
  Id: z.int(),
  Kind: z.string(),
  State: z.enum(JOB_STATES),
  Database: z.int(),
  /** The client's group key (the Job parameter of the per-document calls), when it has one. */
  Key: z.optional(z.nullable(z.string())),
  /** Source archive and, for copy and move, the destination archive. */
  Archive: z.optional(z.nullable(z.int())),
  DestinationArchive: z.optional(z.nullable(z.int())),
  /** How many documents the job is for (the Count parameter). */
  Count: z.int(),
  /** How many of them the server has received so far (a group arrives one call per document). */
  Received: z.int(),
  /** Handled so far: Succeeded + Failed. */
  Processed: z.int(),
  Succeeded: z.int(),
  Failed: z.int(),
  /** Job notes (the user-app spec §3): [5, { Action, Count, Succeeded, Failed }] for copy/move/delete. */
  Notes: z.array(JobNote),
  /**
   * What the tray needs to name a job it did not start (another device, a new sign-in) as it names its
   * own: an export's Format ("Excel export of 3 documents") and an import's CSV file Name.
   */
  Format: z.optional(z.enum(['zip', 'xlsx'])),
  Name: z.optional(z.string()),
  /** Why a job failed as a whole (e.g. its destination archive was removed); its items fail with it. */
  Reason: z.optional(z.string()),
  /** Only in GET api/jobs/{id} and DELETE: each failure; Results only with ?Results=true. */
  Failures: z.optional(z.array(JobFailure)),
  Results: z.optional(z.array(JobResult)),
  /** ISO times. */
  Created: z.string(),
  Updated: z.string(),
  Finished: z.optional(z.nullable(z.string())),
});
export type Job = z.infer<typeof Job>;
export const JobList = z.array(Job);

/** The spec's wording of one failure (the archive-ops spec §8). */
export const jobFailureMessage = (docId: number, reason: string): string => `DocID ${docId}: ${reason}`;
/** The document a failure message names (the inverse of jobFailureMessage); null when it names none. */
export const jobFailureDocId = (message: string): number | null => {
  const m = /^DocID (\d+):/.exec(message);
  return m ? Number(m[1]) : null;
};

export const jobPaths = {
  list: '/api/jobs',
  job: (id: number) => `/api/jobs/${id}`,
} as const;
