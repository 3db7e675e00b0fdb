/**
 * The dirty rows of a page and what becomes of them: Save (one outbox entry per dirty document, after
 * the running server checks; refused while a value is invalid), Cancel (asks first when values are
 * invalid), and dropping the invalid values. The rows live in memory only (React state, with a ref of
 * them for the asynchronous steps); nothing is written anywhere until Save.
 *
 * Drafts: text an input of the edit or indexer panel holds that has not been judged yet (a value is
 * judged when its input is left). They count as unsaved changes at once, so Save and Cancel enable
 * with the first keystroke, paste or autofill: on a touch screen the input may keep its focus while
 * Save is tapped, and a Save that stayed disabled until then could never be tapped. Each draft is
 * kept as what leaving its input would do; Save does that first, Cancel drops the drafts.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { OutboxEntry } from '../../db/db';
import { enqueueFieldEdit } from '../../sync/kinds/field-data';
import { notify } from '../../ui/notifications';
import { NO_DIRTY, buildFieldEdits, dropInvalid, invalidEntries, type DirtyRows, type EditField } from './edit-logic';
import type { ServerChecks } from './use-server-check';

export type EditAlert = { kind: 'unsaved'; invalid: number } | { kind: 'confirm-cancel'; invalid: number } | { kind: 'confirm-close' } | null;

/** A draft's key: the document and the field whose input holds it. */
export const draftKey = (docId: number, fieldId: number): string => `${docId}:${fieldId}`;

/** Drafts by draftKey: each one judges its text as leaving the input would. */
export type Drafts = ReadonlyMap<string, { docId: number; judge: () => void }>;
const NO_DRAFTS: Drafts = new Map();

/** The dirty rows and the drafts: the state for rendering, refs for the asynchronous steps, and one way to change each. */
export function useDirtyRows() {
  const [dirty, setDirty] = useState<DirtyRows>(NO_DIRTY);
  // The store as of now, for the asynchronous steps (server checks, list refreshes, Save after them).
  const dirtyRef = useRef<DirtyRows>(NO_DIRTY);
  const update = useCallback((fn: (d: DirtyRows) => DirtyRows) => {
    dirtyRef.current = fn(dirtyRef.current);
    setDirty(dirtyRef.current);
  }, []);
  const [drafts, setDrafts] = useState<Drafts>(NO_DRAFTS);
  const draftsRef = useRef<Drafts>(NO_DRAFTS);
  const changeDrafts = useCallback((fn: (d: Map<string, { docId: number; judge: () => void }>) => void) => {
    const next = new Map(draftsRef.current);
    fn(next);
    draftsRef.current = next;
    setDrafts(next);
  }, []);
  /** An input's text changed (typed, pasted, filled in): `judge` does what leaving the input would. */
  const putDraft = useCallback((docId: number, fieldId: number, judge: () => void) => changeDrafts((d) => void d.set(draftKey(docId, fieldId), { docId, judge })), [changeDrafts]);
  /** The field's value was judged (or dropped): its draft is no longer pending. */
  const dropDraft = useCallback(
    (docId: number, fieldId: number) => {
      if (draftsRef.current.has(draftKey(docId, fieldId))) changeDrafts((d) => void d.delete(draftKey(docId, fieldId)));
    },
    [changeDrafts],
  );
  /** Judges every draft (before a save), as if each input had been left. */
  const judgeDrafts = useCallback(() => {
    const pending = [...draftsRef.current.values()];
    if (pending.length === 0) return;
    changeDrafts((d) => d.clear());
    for (const p of pending) p.judge();
  }, [changeDrafts]);
  const clearDrafts = useCallback(() => {
    if (draftsRef.current.size) changeDrafts((d) => d.clear());
  }, [changeDrafts]);
  /** Documents with unsaved changes: dirty rows, and rows with a draft not judged yet. */
  const unsavedCount = useMemo(() => new Set([...dirty.keys(), ...[...drafts.values()].map((d) => d.docId)]).size, [dirty, drafts]);
  const hasUnsaved = useCallback(() => dirtyRef.current.size > 0 || draftsRef.current.size > 0, []);
  return { dirty, dirtyRef, update, drafts, putDraft, dropDraft, judgeDrafts, clearDrafts, unsavedCount, hasUnsaved };
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
  const { dirty, dirtyRef, update, judgeDrafts, clearDrafts } = p.rows;
  const [alert, setAlert] = useState<EditAlert>(null);
  const [saving, setSaving] = useState(false);

  const save = useCallback(async (): Promise<boolean> => {
    // Text still in an input is judged (and sent for its server check) as leaving the input would.
    judgeDrafts();
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
  }, [judgeDrafts, settled, dirtyRef, dbId, fieldsById, entries, update]);

  const discardAll = useCallback(() => {
    abortAll();
    clearDrafts();
    update(() => NO_DIRTY);
    setAlert(null);
    notify('info', cancelledText());
  }, [abortAll, clearDrafts, update, cancelledText]);

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
