-- Chunked, resumable uploads (issue 11 item 1; src/api/upload.ts, server/services/upload.ts). 001
-- declared the uploads table; this adds what the service needs. The chunks' bytes never enter the
-- database: they go to a part file on disk (`${files}/uploads/<id>.part`) at Index * chunk_size, and
-- next_index (advanced only after the bytes are written) is the resume point. upload_chunks (001) is
-- not used: a row per chunk would cost a statement per MiB for nothing next_index does not say.
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS file_type text;
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS database_id integer;
-- Chunks sent again although the server had them (a lost answer, a browser re-send): counted, not
-- written twice; the tests read it to prove a cut connection costs at most one chunk.
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS repeated_chunks integer NOT NULL DEFAULT 0;
-- Final: result (the inbox file or the staged blob), or error_key/error_message when it failed.
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS result jsonb;
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS error_key text;
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS error_message text;
ALTER TABLE uploads ADD COLUMN IF NOT EXISTS finished_at timestamptz;
CREATE INDEX IF NOT EXISTS uploads_owner_idx ON uploads (owner_id, created_at);
-- The hourly purge looks only at uploads still receiving.
CREATE INDEX IF NOT EXISTS uploads_open_idx ON uploads (updated_at) WHERE state = 'receiving';
