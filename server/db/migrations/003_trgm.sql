-- requires: pg_trgm
-- Trigram index for Contains searches over field values. Skipped (and retried at the next start)
-- where the extension cannot be created, e.g. PostgreSQL without the privilege.
CREATE INDEX documents_fields_trgm ON documents USING gin ((fields::text) gin_trgm_ops);
