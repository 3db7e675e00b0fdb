-- A data version for the search count caches (server/search/data-version.ts): one number that
-- every committed change of the documents table (field edits, imports, deletes, moves, bulk
-- updates, the seed) raises. Counts are cached under the version they were computed at, so a
-- write invalidates them by construction, for every route that writes and for every server
-- process sharing one PostgreSQL.
--
-- The bump is a deferred constraint trigger: it runs once per transaction, just before the
-- commit. So the version row is locked only for the moment of the commit (two writers never
-- wait on it while they still hold document rows, so it adds no deadlock), and a reader sees the
-- new version exactly when it sees the changed documents (never the version without the data).
CREATE TABLE IF NOT EXISTS data_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO data_version (id, version) VALUES (true, 1) ON CONFLICT (id) DO NOTHING;

CREATE OR REPLACE FUNCTION documents_bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  xid text := txid_current()::text;
BEGIN
  -- Once per transaction, however many rows it changed.
  IF current_setting('archive.data_version_xid', true) IS DISTINCT FROM xid THEN
    PERFORM set_config('archive.data_version_xid', xid, true);
    UPDATE data_version SET version = version + 1;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS documents_data_version ON documents;
CREATE CONSTRAINT TRIGGER documents_data_version AFTER INSERT OR UPDATE OR DELETE ON documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION documents_bump_data_version();
