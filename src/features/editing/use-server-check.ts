/**
 * The server check of edited values through the validation worker (validation-bridge.ts; POST
 * api/indexes for what only the server knows). While a value is checked its cell is marked "checking"
 * and Save waits for it; a newer edit of the same cell aborts the older check. Offline or on a server
 * error the local result stands (the server validates again on save). State: the running checks by
 * `${docId}:${fieldId}`, in a ref (the asynchronous steps read it as it is now).
 */
import { useCallback, useRef } from 'react';
import type { Field } from '../../api/archives';
import { httpContext } from '../../api/http';
import { toEditText } from '../../fields/masks';
import { applyCheck, docArchiveId, type DirtyCell, type EditDoc, type EditField } from './edit-logic';
import { validateFields, type ServerCheckContext } from './validation-bridge';

interface RunningCheck {
  seq: number;
  abort: AbortController;
  done: Promise<void>;
}

export interface ServerChecks {
  /** Checks locally valid values of one document; `put` receives each cell as the check leaves it. */
  check: (doc: EditDoc, items: readonly { field: EditField; cell: DirtyCell }[]) => void;
  /** Forgets (and aborts) the check of one cell: a newer value replaces it. */
  forget: (docId: number, fieldId: number) => void;
  abortAll: () => void;
  /** Resolves when no check runs any more (those started meanwhile included). */
  settled: () => Promise<void>;
  running: () => boolean;
}

export function useServerChecks(p: { dbId: number; archiveId: number; locale: string; put: (doc: EditDoc, field: EditField, cell: DirtyCell) => void }): ServerChecks {
  const checks = useRef(new Map<string, RunningCheck>());
  const seq = useRef(0);
  const { dbId, archiveId, locale, put } = p;

  const serverContext = useCallback(
    (doc: EditDoc): ServerCheckContext | undefined => {
      const { baseUrl, token } = httpContext();
      return token && dbId > 0 ? { dbId, archiveId: docArchiveId(doc, archiveId), token, apiBase: baseUrl } : undefined;
    },
    [dbId, archiveId],
  );

  /**
   * Until the check answers the cells are marked "checking" and Save waits. Refused: the cell shows
   * the server's reason. Offline or a server error: the local result stands.
   */
  const check = useCallback(
    (doc: EditDoc, items: readonly { field: EditField; cell: DirtyCell }[]) => {
      const mine = ++seq.current;
      const ac = new AbortController();
      const keys = items.map((i) => `${doc.Id}:${i.field.ID}`);
      const current = (k: string) => checks.current.get(k)?.seq === mine;
      const settle = (answers: ReadonlyMap<number, Parameters<typeof applyCheck>[2]>) => {
        items.forEach((i, n) => {
          if (current(keys[n]!)) put(doc, i.field, applyCheck(i.field, i.cell, answers.get(i.field.ID), locale));
        });
      };
      // The worker applies the local rules again to what it is given: the values in the locale's edit form.
      const values = items.map(({ field, cell }) => ({
        ID: field.ID,
        VAL: toEditText(field, cell.wire?.VAL ?? '', locale),
        ...(cell.wire?.MVAL ? { MVAL: cell.wire.MVAL.map((v) => toEditText(field, v, locale)) } : {}),
      }));
      const done = validateFields(items.map((i) => i.field as Field), values, locale, { ctx: serverContext(doc), signal: ac.signal })
        .then(
          (outcome) => settle(new Map(outcome.results.map((r) => [r.ID, r]))),
          () => settle(new Map()),
        )
        .finally(() => keys.forEach((k) => current(k) && checks.current.delete(k)));
      keys.forEach((k) => {
        checks.current.get(k)?.abort.abort();
        checks.current.set(k, { seq: mine, abort: ac, done });
      });
    },
    [put, locale, serverContext],
  );

  const forget = useCallback((docId: number, fieldId: number) => {
    const key = `${docId}:${fieldId}`;
    checks.current.get(key)?.abort.abort();
    checks.current.delete(key);
  }, []);

  const abortAll = useCallback(() => {
    for (const c of checks.current.values()) c.abort.abort();
    checks.current.clear();
  }, []);

  const settled = useCallback(async () => {
    while (checks.current.size) await Promise.allSettled([...checks.current.values()].map((c) => c.done));
  }, []);

  const running = useCallback(() => checks.current.size > 0, []);

  return { check, forget, abortAll, settled, running };
}
