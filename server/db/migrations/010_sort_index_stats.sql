-- The sort indexes of 009 were partial (WHERE NOT deleted), and the planner takes no statistics
-- from a partial index's expressions: it guessed 0.5 % of the rows for any Equals on a field and
-- read thousands of table rows where walking an index would have read a few dozen. The indexes
-- are now whole (deleted is carried in them, like archive_id, so neither needs the table row) and
-- named documents_k<field>_<asc|desc>; server/db/migrate.ts createFieldIndexes builds them.
CREATE OR REPLACE FUNCTION sort_index_statements() RETURNS SETOF text LANGUAGE plpgsql STABLE AS $$
DECLARE
  f record;
  k text;
  dir text;
BEGIN
  FOR f IN
    SELECT DISTINCT fl.id, fl.type FROM archive_fields af JOIN fields fl ON fl.id = af.field_id
     WHERE NOT fl.multi_value AND fl.parent_id IS NULL AND (fl.prop & 32) = 0
     ORDER BY fl.id
  LOOP
    -- The same expressions as sortKey in server/search/query.ts.
    k := CASE WHEN f.type IN (2, 4) THEN format('doc_num(fields->>%L)', f.id::text)
              WHEN f.type = 3 THEN format('NULLIF(fields->>%L, %L)', f.id::text, '')
              ELSE format('lower(NULLIF(fields->>%L, %L))', f.id::text, '') END;
    FOREACH dir IN ARRAY ARRAY['asc', 'desc'] LOOP
      IF to_regclass(format('documents_k%s_%s', f.id, dir)) IS NULL THEN
        RETURN NEXT format('CREATE INDEX IF NOT EXISTS documents_k%s_%s ON documents (%s %s NULLS LAST, id) INCLUDE (archive_id, deleted)', f.id, dir, k, upper(dir));
      END IF;
    END LOOP;
  END LOOP;
END
$$;

DO $$
DECLARE
  i record;
BEGIN
  FOR i IN SELECT indexname FROM pg_indexes WHERE tablename = 'documents' AND indexname ~ '^documents_s[0-9]+_(asc|desc)$' LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I', i.indexname);
  END LOOP;
END
$$;
