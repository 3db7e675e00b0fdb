/**
 * The content-search words of documents written before migration 018 (document_terms and their
 * counts in archive_doc_counts): filled in the background after the server starts, FILL_STEP
 * documents per transaction, so that a large archive neither holds up the start nor runs one
 * statement past the timeout. The triggers of 018 keep every newer change; a change to a document
 * the fill has not reached is left to the fill, and each step locks the fill row, which the
 * triggers read FOR SHARE, so a step and a change never interleave. Until the fill is done the
 * search ranks and counts from the documents' vectors as before (termsReady).
 */
import type { Queryable, Store } from '../db/store.js';
import { foldDocCounts } from './doc-counts.js';

export const FILL_STEP = 2000;

const ready = new WeakSet<Queryable>();

/** Whether document_terms holds every live document's words (no fill row left); once so, always so. */
export async function termsReady(db: Queryable): Promise<boolean> {
  if (ready.has(db)) return true;
  const r = await db.query('SELECT 1 FROM document_terms_fill');
  if (r.rowCount === 0) ready.add(db);
  return r.rowCount === 0;
}

/** Fills one step; returns false when nothing is left to fill. */
export async function fillTermsStep(store: Store, step = FILL_STEP): Promise<boolean> {
  return store.transaction(async (tx) => {
    const r = await tx.query<{ next_id: number | string; upto: number | string }>('SELECT next_id, upto FROM document_terms_fill FOR UPDATE');
    const row = r.rows[0];
    if (!row) return false;
    const from = Number(row.next_id);
    const upto = Number(row.upto);
    const to = Math.min(from + step - 1, upto);
    await tx.query('SELECT add_document_terms(ARRAY(SELECT id FROM documents WHERE id BETWEEN $1 AND $2))', [from, to]);
    if (to >= upto) await tx.query('DELETE FROM document_terms_fill');
    else await tx.query('UPDATE document_terms_fill SET next_id = $1', [to + 1]);
    return to < upto;
  });
}

/**
 * Runs the fill to its end, a step at a time, yielding between steps so that requests are served
 * meanwhile; stops early when `stopped()` says so (the server is closing). When it filled anything,
 * folds the counts its steps added (on a start with nothing to fill it does no more than one read).
 */
export async function fillTerms(store: Store, stopped: () => boolean = () => false): Promise<void> {
  if ((await store.query('SELECT 1 FROM document_terms_fill')).rowCount === 0) return;
  while (!stopped() && (await fillTermsStep(store))) await new Promise((r) => setImmediate(r));
  if (!stopped()) await foldDocCounts(store);
}
