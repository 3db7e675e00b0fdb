-- Content-search Hits: how many times the searched words occur in a document (issue 8, item 20).
--
-- 1. document_terms: one row per word (lexeme) of each live document's content_tsv, with the number
--    of its positions there (PostgreSQL keeps at most 256 per lexeme). Its index, in the order of a
--    page sorted by hits (most first, then the document id), lets a one-word search read its first
--    page from 25 index entries instead of ranking every match (34,770 of 100,000 for "invoice").
--    Deleted documents have no rows. server/search/run.ts decides when it serves a page.
-- 2. archive_doc_counts gains a term: besides the live documents per archive (term ''), it keeps
--    how many of them hold each word, so a one-word search's count is the sum of a few rows. The
--    same insert-only delta rows as 009 (two writers never wait on each other), folded on read
--    (server/search/doc-counts.ts) and all at once by fold_doc_counts().
-- 3. Documents written before this migration get their rows from a fill that runs in the
--    background after the server starts (server/search/terms-fill.ts), a range of ids at a time;
--    until it is done (document_terms_fill has no row) the search does not use these tables.
CREATE TABLE IF NOT EXISTS document_terms (
  term text NOT NULL,
  hits smallint NOT NULL,
  document_id bigint NOT NULL,
  archive_id integer NOT NULL
);
CREATE INDEX IF NOT EXISTS document_terms_rank ON document_terms (term, hits DESC, document_id) INCLUDE (archive_id);

ALTER TABLE archive_doc_counts ADD COLUMN IF NOT EXISTS term text NOT NULL DEFAULT '';
DROP INDEX IF EXISTS archive_doc_counts_archive_idx;
CREATE INDEX IF NOT EXISTS archive_doc_counts_term_idx ON archive_doc_counts (term, archive_id) INCLUDE (n);

-- The documents of ids next_id..upto still to fill (at most one row).
CREATE TABLE IF NOT EXISTS document_terms_fill (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  next_id bigint NOT NULL,
  upto bigint NOT NULL
);
INSERT INTO document_terms_fill (next_id, upto)
  SELECT 1, max(id) FROM documents HAVING max(id) IS NOT NULL
  ON CONFLICT (id) DO NOTHING;

-- The hits of one lexeme of a tsvector, from its positions (a stripped vector has none: 1).
CREATE OR REPLACE FUNCTION tsv_hits(positions smallint[]) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_length(positions, 1), 1)::smallint
$$;

-- The words of the live documents among `ids`, with their counts: a document whose text, deleted
-- flag or archive changed, and each range of the fill (server/search/terms-fill.ts).
CREATE OR REPLACE FUNCTION add_document_terms(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH added AS (
    INSERT INTO document_terms (term, hits, document_id, archive_id)
    SELECT u.lexeme, tsv_hits(u.positions), d.id, d.archive_id FROM documents d, unnest(d.content_tsv) u
     WHERE d.id = ANY(ids) AND NOT d.deleted
    RETURNING term, archive_id
  )
  INSERT INTO archive_doc_counts (term, archive_id, n) SELECT term, archive_id, count(*) FROM added GROUP BY term, archive_id;
$$;

-- Inserted documents, a statement at a time (a bulk load's rows in one insert and one delta row
-- per word and archive), from the statement's own rows rather than add_document_terms, which would
-- read each new document again.
CREATE OR REPLACE FUNCTION document_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS (
    INSERT INTO document_terms (term, hits, document_id, archive_id)
    SELECT u.lexeme, tsv_hits(u.positions), n.id, n.archive_id FROM new_rows n, unnest(n.content_tsv) u WHERE NOT n.deleted
    RETURNING term, archive_id
  )
  INSERT INTO archive_doc_counts (term, archive_id, n) SELECT term, archive_id, count(*) FROM added GROUP BY term, archive_id;
  RETURN NULL;
END
$$;

-- A document whose text, deleted flag or archive changed: a row at a time (an UPDATE trigger with
-- transition tables cannot name its columns, and would run on every edit of a field), each of its
-- words found through the index (term, hits, id). A document the fill has not reached yet is left
-- to it; the fill row is read FOR SHARE so that a fill step never runs beside this change.
CREATE OR REPLACE FUNCTION document_terms_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unfilled boolean;
BEGIN
  SELECT NEW.id BETWEEN f.next_id AND f.upto INTO unfilled FROM document_terms_fill f FOR SHARE;
  IF unfilled THEN
    RETURN NULL;
  END IF;
  WITH gone AS (
    DELETE FROM document_terms t USING unnest(OLD.content_tsv) u
     WHERE NOT OLD.deleted AND t.term = u.lexeme AND t.hits = tsv_hits(u.positions) AND t.document_id = OLD.id
    RETURNING t.term, t.archive_id
  )
  INSERT INTO archive_doc_counts (term, archive_id, n) SELECT term, archive_id, -count(*) FROM gone GROUP BY term, archive_id;
  PERFORM add_document_terms(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;

-- Documents deleted for good (an archive's, all at once): a statement at a time, each word of each
-- document found through the index; hash and merge joins are off for this function, as the
-- planner would otherwise read the whole table to delete the words of a few documents.
CREATE OR REPLACE FUNCTION document_terms_delete() RETURNS trigger LANGUAGE plpgsql
SET enable_hashjoin = off SET enable_mergejoin = off AS $$
DECLARE
  fill_from bigint;
  fill_to bigint;
BEGIN
  SELECT next_id, upto INTO fill_from, fill_to FROM document_terms_fill FOR SHARE;
  WITH gone AS (
    DELETE FROM document_terms t
     USING (SELECT o.id, u.lexeme, tsv_hits(u.positions) AS hits FROM old_rows o, unnest(o.content_tsv) u
             WHERE NOT o.deleted AND (fill_from IS NULL OR o.id NOT BETWEEN fill_from AND fill_to)) x
     WHERE t.term = x.lexeme AND t.hits = x.hits AND t.document_id = x.id
    RETURNING t.term, t.archive_id
  )
  INSERT INTO archive_doc_counts (term, archive_id, n) SELECT term, archive_id, -count(*) FROM gone GROUP BY term, archive_id;
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS documents_terms_ins ON documents;
DROP TRIGGER IF EXISTS documents_terms_upd ON documents;
DROP TRIGGER IF EXISTS documents_terms_del ON documents;
CREATE TRIGGER documents_terms_ins AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_terms_insert();
CREATE TRIGGER documents_terms_upd AFTER UPDATE OF content_text, deleted, archive_id ON documents FOR EACH ROW
  WHEN (OLD.content_text IS DISTINCT FROM NEW.content_text OR OLD.deleted IS DISTINCT FROM NEW.deleted OR OLD.archive_id IS DISTINCT FROM NEW.archive_id)
  EXECUTE FUNCTION document_terms_change();
CREATE TRIGGER documents_terms_del AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_terms_delete();

-- Folds every delta row into one per term and archive (the hourly purge and the seed call it).
CREATE OR REPLACE FUNCTION fold_doc_counts() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM archive_doc_counts RETURNING term, archive_id, n)
  INSERT INTO archive_doc_counts (term, archive_id, n)
    SELECT term, archive_id, sum(n) FROM gone GROUP BY term, archive_id HAVING sum(n) <> 0;
$$;
