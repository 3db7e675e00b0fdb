-- Export as a server job (issue 10 item 1; the contract is src/api/export.ts, the work
-- server/services/export.ts). An export job uses the columns 001 gave every job: payload holds its
-- settings (the ExportSettings body, the query and the result's file name, fixed when the job is
-- created so a restarted export makes the same file), result the finished file (its name on disk,
-- the user's file name, size, format, expiry) until EXPORT_KEEP_HOURS purge it.
--
-- The two document states the export refuses (the user-app spec §4 "Export conversion states: PDF
-- conversion pending, in workflow, or both"; §8 ERROR_EXPORT_PDF_PENDING / _IN_WORKFLOW /
-- _PDF_WORKFLOW_PENDING). Nothing sets them yet but the seed (a later PDF conversion and the
-- workflow issue will; the workflow one may move to its own table then).
ALTER TABLE documents ADD COLUMN IF NOT EXISTS pdf_pending boolean NOT NULL DEFAULT false;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS in_workflow boolean NOT NULL DEFAULT false;
-- An export of 100,000 documents asks which of them are held back: only the few that are matter.
CREATE INDEX IF NOT EXISTS documents_export_held_idx ON documents (id) WHERE pdf_pending OR in_workflow;
-- The hourly purge looks only at finished exports whose file is still kept.
CREATE INDEX IF NOT EXISTS jobs_export_kept_idx ON jobs (finished_at) WHERE kind = 'export' AND result IS NOT NULL;
