-- Annotations on document pages (issue 12 item 3; the contract: src/api/annotations.ts, the work:
-- server/services/annotations.ts). One row an annotation: a note (text), a stamp (read-only text with
-- a red outline) or a highlight, on one page. Position and size are fractions (0..1) of the page as
-- shown (after its rotation); font_size is a fraction of the page's width, so the text scales with
-- the page at every zoom and in an export. The id is the client's UUID: an annotation made offline
-- keeps its id when the outbox sends it, and a resend updates the same row.
CREATE TABLE IF NOT EXISTS annotations (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  page integer NOT NULL CHECK (page >= 1),
  kind text NOT NULL CHECK (kind IN ('text', 'stamp', 'highlight')),
  x double precision NOT NULL,
  y double precision NOT NULL,
  width double precision NOT NULL,
  height double precision NOT NULL,
  font_size double precision NOT NULL DEFAULT 0,
  text text NOT NULL DEFAULT '',
  color text NOT NULL DEFAULT '#d32f2f',
  created_by integer REFERENCES users(id) ON DELETE SET NULL,
  created_by_name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS annotations_doc_idx ON annotations (document_id, page);
