/**
 * Document counts per archive, kept by the database (009_sort_indexes.sql, 018_document_terms.sql):
 * insert-only delta rows (one per archive, term and writing statement), summed here. Term '' counts
 * the live documents; any other term, those whose text holds that word (lexeme). A search without
 * conditions, or with one content-search word and nothing else, takes its total from them in well
 * under a millisecond instead of counting tens of thousands of index entries. When an archive and
 * term have gathered many delta rows, they are folded into one; foldDocCounts folds them all.
 */
import type { Queryable } from '../db/store.js';

/** Delta rows per read above which they are folded into one per archive. */
const FOLD_AT = 64;

export async function archiveDocCount(db: Queryable, archiveIds: readonly number[], term = ''): Promise<number> {
  const ids = archiveIds.filter((id) => Number.isInteger(id));
  if (!ids.length) return 0;
  const where = `term = $1 AND archive_id IN (${ids.join(', ')})`;
  const r = await db.query<{ n: number; rows: number }>(`SELECT COALESCE(sum(n), 0) AS n, count(*) AS rows FROM archive_doc_counts WHERE ${where}`, [term]);
  const row = r.rows[0];
  if (Number(row?.rows ?? 0) > FOLD_AT) {
    // One statement: the rows it deletes are exactly those it sums, so a concurrent writer's new
    // delta row (not in its snapshot) is neither lost nor counted twice.
    await db.query(
      `WITH gone AS (DELETE FROM archive_doc_counts WHERE ${where} RETURNING archive_id, n)
       INSERT INTO archive_doc_counts (term, archive_id, n) SELECT $1, archive_id, sum(n) FROM gone GROUP BY archive_id`,
      [term],
    );
  }
  return Number(row?.n ?? 0);
}

/** Folds every archive's and term's delta rows into one (words nobody searches are never folded on read). */
export async function foldDocCounts(db: Queryable): Promise<void> {
  await db.query('SELECT fold_doc_counts()');
}
