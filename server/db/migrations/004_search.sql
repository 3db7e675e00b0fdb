-- Search helpers (issue 3). doc_num: the numeric value of a field's text, NULL when the text is
-- not a number, so number/decimal conditions and sorts never fail on a bad value. A plain SQL
-- function, IMMUTABLE, so it is inlined by the planner and usable in expression indexes
-- (server/db/migrate.ts createFieldIndexes builds one per number/decimal field).
CREATE OR REPLACE FUNCTION doc_num(t text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN t ~ '^\s*-?([0-9]+\.?[0-9]*|\.[0-9]+)\s*$' THEN t::numeric END $$;

-- Archive history pages (newest first) and document history.
CREATE INDEX IF NOT EXISTS audit_archive_time_idx ON audit_entries (archive_id, time DESC, id DESC);
