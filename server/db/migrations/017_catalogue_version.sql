-- The catalogue version (server/services/catalogue-version.ts): one number that every committed
-- change of what the user app keeps as metadata raises — databases, archives and their fields,
-- the field catalogue, lists and their values, searches with their archives, parameters and view
-- tabs, the rights on databases, archives and searches, advanced links and stamps — whoever makes
-- it (the console, a script, the seed, another server process on the same PostgreSQL). Every
-- authenticated API answer carries it in the Catalogue-Version header, so a device that kept
-- these for minutes sees a change on its next call and reads them again (issue 13 item 7).
--
-- As for the documents' data version (007): a deferred constraint trigger, once per transaction,
-- just before the commit.
CREATE TABLE IF NOT EXISTS catalogue_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO catalogue_version (id, version) VALUES (true, 1) ON CONFLICT (id) DO NOTHING;

-- One trigger function for both versions, named by the trigger's argument (the version table):
-- the documents' trigger of 007 moves to it, so the rule "once per transaction, at the commit"
-- is written once.
CREATE OR REPLACE FUNCTION bump_version_once() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  xid text := txid_current()::text;
  setting text := 'archive.' || TG_ARGV[0] || '_xid';
BEGIN
  IF current_setting(setting, true) IS DISTINCT FROM xid THEN
    PERFORM set_config(setting, xid, true);
    EXECUTE format('UPDATE %I SET version = version + 1', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS documents_data_version ON documents;
CREATE CONSTRAINT TRIGGER documents_data_version AFTER INSERT OR UPDATE OR DELETE ON documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_version_once('data_version');
DROP FUNCTION IF EXISTS documents_bump_data_version();

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'databases', 'database_permissions', 'archives', 'archive_permissions', 'archive_fields',
    'fields', 'table_fields', 'lists', 'list_values', 'dynamic_list_rows',
    'searches', 'search_archives', 'search_items', 'search_view_tabs', 'search_permissions',
    'advanced_links', 'stamps'
  ] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_catalogue_version', t);
    EXECUTE format(
      'CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_version_once(''catalogue_version'')',
      t || '_catalogue_version', t);
  END LOOP;
END
$$;
