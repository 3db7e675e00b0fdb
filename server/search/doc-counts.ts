/**
 * Document counts per archive, kept by the database (009_sort_indexes.sql, 018_document_terms.sql,
 * 019_field_counts.sql): insert-only delta rows (one per archive, key and writing statement), summed
 * here. The key is a field and a term: field 0 with term '' counts the live documents, with any other
 * term those whose text holds that word (lexeme); a counted field (field-counts.ts) with a term,
 * those whose value of that field is the term. A search without conditions, with one content-search
 * word, or with one such field value, and nothing else, takes its total from them in well under a
 * millisecond instead of counting thousands of documents. When an archive and key have gathered
 * many delta rows, they are folded into one; foldDocCounts folds them all.
 */
import type { Queryable } from '../db/store.js';

/** Delta rows per read above which they are folded into one per archive. */
const FOLD_AT = 64;

export async function archiveDocCount(db: Queryable, archiveIds: readonly number[], key: { field?: number; term?: string } = {}): Promise<number> {
  const ids = archiveIds.filter((id) => Number.isInteger(id));
  if (!ids.length) return 0;
  const where = `field_id = $1 AND term = $2 AND archive_id IN (${ids.join(', ')})`;
  const params = [key.field ?? 0, key.term ?? ''];
  const r = await db.query<{ n: number; rows: number }>(`SELECT COALESCE(sum(n), 0) AS n, count(*) AS rows FROM archive_doc_counts WHERE ${where}`, params);
  const row = r.rows[0];
  if (Number(row?.rows ?? 0) > FOLD_AT) {
    // One statement: the rows it deletes are exactly those it sums, so a concurrent writer's new
    // delta row (not in its snapshot) is neither lost nor counted twice.
    await db.query(
      `WITH gone AS (DELETE FROM archive_doc_counts WHERE ${where} RETURNING archive_id, n)
       INSERT INTO archive_doc_counts (field_id, term, archive_id, n) SELECT $1, $2, archive_id, sum(n) FROM gone GROUP BY archive_id`,
      params,
    );
  }
  return Number(row?.n ?? 0);
}

/** Folds every archive's and term's delta rows into one (words nobody searches are never folded on read). */
export async function foldDocCounts(db: Queryable): Promise<void> {
  await db.query('SELECT fold_doc_counts()');
}
