-- Import documents with index data (issue 11 item 3; the contract is src/api/import.ts, the work
-- server/services/import.ts).
--
-- An import's rows are staged like a CSV bulk update's (bulk_update_rows, under the client's key):
-- file_index names the row's document file in the ImportDocuments call's Files (NULL: index data only).
-- The job's items keep each row's values, file and line in job_items.vals; an import item has no
-- document yet, so its document_id is -(position + 1) (unique in the job) and new_document_id is the
-- document it created.
ALTER TABLE bulk_update_rows ADD COLUMN IF NOT EXISTS file_index integer;
