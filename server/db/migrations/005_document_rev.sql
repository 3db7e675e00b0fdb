-- Edit stamps for documents (PUT FieldData, issue 4): `rev` counts changes of a document's field
-- values; `field_revs` maps each field id to the rev at which its value last changed. A client
-- sends the rev it read with an edit; the edit conflicts only when a field it edits has changed
-- since (field_revs[id] > that rev). The trigger keeps both right for every writer (field edits,
-- bulk updates, imports), so no route has to remember to bump them.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS rev integer NOT NULL DEFAULT 1;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS field_revs jsonb NOT NULL DEFAULT '{}'::jsonb;

CREATE OR REPLACE FUNCTION documents_bump_rev() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  IF NEW.fields IS NOT DISTINCT FROM OLD.fields AND NEW.mvals IS NOT DISTINCT FROM OLD.mvals THEN
    RETURN NEW;
  END IF;
  NEW.rev := OLD.rev + 1;
  FOR k IN
    SELECT u.key FROM (SELECT jsonb_object_keys(OLD.fields) AS key UNION SELECT jsonb_object_keys(NEW.fields)) u
     WHERE (OLD.fields -> u.key) IS DISTINCT FROM (NEW.fields -> u.key)
    UNION
    SELECT u.key FROM (SELECT jsonb_object_keys(OLD.mvals) AS key UNION SELECT jsonb_object_keys(NEW.mvals)) u
     WHERE (OLD.mvals -> u.key) IS DISTINCT FROM (NEW.mvals -> u.key)
  LOOP
    NEW.field_revs := jsonb_set(NEW.field_revs, ARRAY[k], to_jsonb(NEW.rev));
  END LOOP;
  RETURN NEW;
END
$$;

DROP TRIGGER IF EXISTS documents_rev ON documents;
CREATE TRIGGER documents_rev BEFORE UPDATE OF fields, mvals ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_bump_rev();
