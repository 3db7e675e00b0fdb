-- Bulk update (issue 11 item 4; the contract is src/api/bulk-update.ts, the work
-- server/services/bulk-update.ts).
--
-- A CSV update arrives in batches of rows before it is counted: bulk_update_rows keeps them under the
-- client's key (per owner), so the count (dry run) and the update read the very same rows. A repeated
-- batch inserts nothing (primary key). The update copies them into its job's items and removes them;
-- rows never used are purged after BULK_UPDATE_ROWS_KEEP_HOURS.
CREATE TABLE IF NOT EXISTS bulk_update_rows (
  owner_id integer NOT NULL,
  key text NOT NULL,
  position integer NOT NULL,
  archive_id integer,
  document_id bigint,
  -- Search update: the row's SearchCriteria.
  criteria text,
  -- [{ID, VAL, MVAL}] in wire form.
  vals jsonb NOT NULL,
  line integer,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner_id, key, position)
);
CREATE INDEX IF NOT EXISTS bulk_update_rows_created_idx ON bulk_update_rows (created_at);

-- A bulk update job's item carries its document's new values (a CSV row each; a basic update keeps
-- its one set of values in jobs.payload and leaves this NULL).
ALTER TABLE job_items ADD COLUMN IF NOT EXISTS vals jsonb;
