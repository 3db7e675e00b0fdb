-- Counts per archive and value of the fields searches filter on most (issue 8, item 20): a list
-- field (Department = Finance) or a view tab's status field. A page with one such condition takes
-- its total from these rows instead of counting thousands of documents, which PostgreSQL cannot do
-- from the field's index alone (an index on an expression never serves an index-only scan), so
-- the count grew with the archive (7,369 of 100,000 documents read for Finance).
--
-- archive_doc_counts gains field_id: 0 for the live documents (term '') and their words (018), else
-- the counted field, whose value's sort key (lower-cased, empty as none) is the term. The fields
-- counted are in counted_fields: server/search/field-counts.ts adds a field there, and counts its
-- documents, in one transaction that keeps writers out (at start, and after a seed); from then on
-- the triggers below keep its counts.
ALTER TABLE archive_doc_counts ADD COLUMN IF NOT EXISTS field_id integer NOT NULL DEFAULT 0;
DROP INDEX IF EXISTS archive_doc_counts_term_idx;
CREATE INDEX IF NOT EXISTS archive_doc_counts_key_idx ON archive_doc_counts (field_id, term, archive_id) INCLUDE (n);

CREATE TABLE IF NOT EXISTS counted_fields (
  field_id integer PRIMARY KEY REFERENCES fields(id) ON DELETE CASCADE
);

-- The counted value of field `field_id` in `fields`: the text sort key of query.ts (sortKey).
CREATE OR REPLACE FUNCTION counted_value(fields jsonb, field_id integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(NULLIF(fields->>field_id::text, ''))
$$;

-- The rows of an inserting statement counted on, of a deleting one counted off.
CREATE OR REPLACE FUNCTION field_counts_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO archive_doc_counts (field_id, term, archive_id, n)
     SELECT c.field_id, counted_value(r.fields, c.field_id), r.archive_id, %s * count(*)
       FROM %I r CROSS JOIN counted_fields c
      WHERE NOT r.deleted AND counted_value(r.fields, c.field_id) IS NOT NULL
      GROUP BY 1, 2, 3',
    CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END, CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END);
  RETURN NULL;
END
$$;

-- A row at a time, and only when the fields, the deleted flag or the archive changed: the values
-- that left and came, netted per field, value and archive.
CREATE OR REPLACE FUNCTION field_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO archive_doc_counts (field_id, term, archive_id, n)
  SELECT field_id, v, archive_id, sum(d) FROM (
    SELECT c.field_id, counted_value(OLD.fields, c.field_id) AS v, OLD.archive_id AS archive_id, -1 AS d FROM counted_fields c WHERE NOT OLD.deleted
    UNION ALL
    SELECT c.field_id, counted_value(NEW.fields, c.field_id), NEW.archive_id, 1 FROM counted_fields c WHERE NOT NEW.deleted
  ) x WHERE v IS NOT NULL
   GROUP BY 1, 2, 3 HAVING sum(d) <> 0;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS documents_field_counts_ins ON documents;
DROP TRIGGER IF EXISTS documents_field_counts_upd ON documents;
DROP TRIGGER IF EXISTS documents_field_counts_del ON documents;
CREATE TRIGGER documents_field_counts_ins AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION field_counts_rows();
CREATE TRIGGER documents_field_counts_upd AFTER UPDATE OF fields, deleted, archive_id ON documents FOR EACH ROW
  WHEN (OLD.fields IS DISTINCT FROM NEW.fields OR OLD.deleted IS DISTINCT FROM NEW.deleted OR OLD.archive_id IS DISTINCT FROM NEW.archive_id)
  EXECUTE FUNCTION field_counts_change();
CREATE TRIGGER documents_field_counts_del AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION field_counts_rows();

-- Folding now keeps the field apart, and drops the rows of fields no longer counted.
CREATE OR REPLACE FUNCTION fold_doc_counts() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM archive_doc_counts RETURNING field_id, term, archive_id, n)
  INSERT INTO archive_doc_counts (field_id, term, archive_id, n)
    SELECT field_id, term, archive_id, sum(n) FROM gone
     WHERE field_id = 0 OR field_id IN (SELECT field_id FROM counted_fields)
     GROUP BY field_id, term, archive_id HAVING sum(n) <> 0;
$$;
