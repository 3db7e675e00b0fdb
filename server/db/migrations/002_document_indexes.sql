-- Document indexes. Created after the table so a bulk seed can drop and re-create them around
-- the load (see server/db/doc-indexes.ts, which names the same indexes).
CREATE UNIQUE INDEX documents_hash_uq ON documents (secure_hash);
CREATE INDEX documents_archive_idx ON documents (archive_id, id) WHERE NOT deleted;
CREATE INDEX documents_fields_gin ON documents USING gin (fields jsonb_path_ops);
CREATE INDEX documents_tsv_gin ON documents USING gin (content_tsv);
CREATE INDEX document_files_doc_idx ON document_files (document_id, position);
