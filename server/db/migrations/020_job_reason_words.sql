-- Why a job's document (or import row) failed, as a message key and its parts ({"Key": ..., "Params":
-- {...}}), beside the English reason: the client says it in the user's language (src/api/jobs.ts
-- JobReasonWords). Items failed before this migration have none; the client shows their reason text.
ALTER TABLE job_items ADD COLUMN reason_words jsonb;
