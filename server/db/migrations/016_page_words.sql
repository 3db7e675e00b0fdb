-- Key-free extraction's recognised words (issue 12 item 5; src/api/words.ts, server/services/words.ts).
-- One row per recognised page, keyed by the file's content hash (so a document's new version, a
-- different file, is recognised again, and a copy of a document shares its words), the page in that
-- file (0-based) and the rotation the viewer shows it at. words holds the KeyFreeWord list with
-- positions as fractions of the page; image_width/height are the recognised image's pixels.
CREATE TABLE IF NOT EXISTS page_words (
  sha256 text NOT NULL,
  page_in_file integer NOT NULL,
  rotation integer NOT NULL DEFAULT 0,
  image_width integer NOT NULL,
  image_height integer NOT NULL,
  words jsonb NOT NULL,
  engine text NOT NULL,
  recognised_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sha256, page_in_file, rotation)
);
