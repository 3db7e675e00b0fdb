-- Server jobs worked by any server process sharing the database (server/jobs/runner.ts; issue 9).
--
-- A job of copy/move/delete is a group: the client sends one call per document with the same Job
-- key (src/api/documents.ts), so a job is found by (owner_id, key) and each call adds one row to
-- job_items. The unique (job_id, archive_id, document_id) makes a repeated call add nothing.
--
-- A runner claims a job with SELECT ... FOR UPDATE SKIP LOCKED and marks it with its process's boot
-- id (locked_by) and a lease (lease_until) that its heartbeat extends; a job whose lease lapsed (its
-- process died) is claimed again by any process. Each document's step (the document change, its
-- item's state and the job's counters) is one transaction, so a crash leaves no half-done document
-- and no double count, and an item that is done is never done again.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS key text;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS archive_id integer;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS destination_archive_id integer;
-- How many documents the client has sent so far (total is the group's Count).
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS received integer NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS lease_until timestamptz;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
CREATE UNIQUE INDEX IF NOT EXISTS jobs_owner_key_uq ON jobs (owner_id, key) WHERE key IS NOT NULL;
-- The runner's claim looks only at jobs that are not final.
CREATE INDEX IF NOT EXISTS jobs_open_idx ON jobs (id) WHERE state IN ('queued', 'running');

-- state: pending, done, failed. reason/reason_key: why it failed ('DocID {id}: reason' on the wire).
-- new_document_id/new_archive_id: the copy, or where the document was moved.
CREATE TABLE IF NOT EXISTS job_items (
  job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  position integer NOT NULL,
  archive_id integer NOT NULL,
  document_id bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  reason text,
  reason_key text,
  key text,
  new_document_id bigint,
  new_archive_id integer,
  handled_at timestamptz,
  PRIMARY KEY (job_id, position),
  UNIQUE (job_id, archive_id, document_id)
);
CREATE INDEX IF NOT EXISTS job_items_pending_idx ON job_items (job_id, position) WHERE state = 'pending';

-- A document's history follows the document (a moved document keeps its earlier entries, which stay
-- filed under the archive they happened in): document ids are unique across archives.
CREATE INDEX IF NOT EXISTS audit_document_idx ON audit_entries (document_id, time);
