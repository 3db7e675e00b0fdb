/**
 * The dirty rows of a page and what becomes of them: Save (one outbox entry per dirty document, after
 * the running server checks; refused while a value is invalid), Cancel (asks first when values are
 * invalid), and dropping the invalid values. The rows live in memory only (React state, with a ref of
 * them for the asynchronous steps); nothing is written anywhere until Save.
 */
import { useCallback, useRef, useState } from 'react';
import type { OutboxEntry } from '../../db/db';
import { enqueueFieldEdit } from '../../sync/kinds/field-data';
import { notify } from '../../ui/notifications';
import { NO_DIRTY, buildFieldEdits, dropInvalid, invalidEntries, type DirtyRows, type EditField } from './edit-logic';
import type { ServerChecks } from './use-server-check';

export type EditAlert = { kind: 'unsaved'; invalid: number } | { kind: 'confirm-cancel'; invalid: number } | null;

/** The dirty rows: the state for rendering, a ref for the asynchronous steps, and one way to change both. */
export function useDirtyRows() {
  const [dirty, setDirty] = useState<DirtyRows>(NO_DIRTY);
  // The store as of now, for the asynchronous steps (server checks, list refreshes, Save after them).
  const dirtyRef = useRef<DirtyRows>(NO_DIRTY);
  const update = useCallback((fn: (d: DirtyRows) => DirtyRows) => {
    dirtyRef.current = fn(dirtyRef.current);
    setDirty(dirtyRef.current);
  }, []);
  return { dirty, dirtyRef, update };
}

export function useEditSave(p: {
  dbId: number;
  fieldsById: ReadonlyMap<number, EditField>;
  entries: readonly OutboxEntry[];
  rows: ReturnType<typeof useDirtyRows>;
  checks: Pick<ServerChecks, 'settled' | 'abortAll'>;
  /** The text of the toast after a discard (EDIT_SAVE_CANCELLED). */
  cancelledText: () => string;
}) {
  const { dbId, fieldsById, entries, cancelledText } = p;
  // Both stable (useServerChecks makes them once): Save and Discard keep their identity.
  const { settled, abortAll } = p.checks;
  const { dirty, dirtyRef, update } = p.rows;
  const [alert, setAlert] = useState<EditAlert>(null);
  const [saving, setSaving] = useState(false);

  const save = useCallback(async (): Promise<boolean> => {
    // Values still being checked by the server are saved as the check leaves them.
    await settled();
    const built = buildFieldEdits(dirtyRef.current, dbId, fieldsById, entries);
    if (!built.ok) {
      setAlert({ kind: 'unsaved', invalid: built.invalid.length });
      return false;
    }
    setSaving(true);
    try {
      for (const e of built.edits) {
        await enqueueFieldEdit(e);
        update((d) => {
          const next = new Map(d);
          next.delete(e.docId);
          return next;
        });
      }
      setAlert(null);
      return true;
    } catch {
      setAlert({ kind: 'unsaved', invalid: 0 });
      return false;
    } finally {
      setSaving(false);
    }
  }, [settled, dirtyRef, dbId, fieldsById, entries, update]);

  const discardAll = useCallback(() => {
    abortAll();
    update(() => NO_DIRTY);
    setAlert(null);
    notify('info', cancelledText());
  }, [abortAll, update, cancelledText]);

  const cancel = useCallback(() => {
    const invalid = invalidEntries(dirty).length;
    if (invalid) setAlert({ kind: 'confirm-cancel', invalid });
    else discardAll();
  }, [dirty, discardAll]);

  const discardInvalid = useCallback(() => {
    update((d) => dropInvalid(d));
    setAlert(null);
  }, [update]);

  return { save, saving, alert, setAlert, discardAll, cancel, discardInvalid };
}
