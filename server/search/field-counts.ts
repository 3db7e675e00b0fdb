/**
 * The fields whose documents are counted per archive and value (019_field_counts.sql): the scalar
 * text fields with a list (Department) and the fields an archive's view tabs read their status
 * from. A search whose one condition is such a value (Department = Finance, a view tab) takes its
 * count from archive_doc_counts (doc-counts.ts).
 */
import { createFieldIndexes } from '../db/migrate.js';
import type { Queryable, Store } from '../db/store.js';

/** How long a process trusts its list of counted fields (a field counted since is counted for good). */
const KNOWN_MS = 60_000;
const known = new WeakMap<Queryable, { ids: Set<number>; at: number }>();

/**
 * Adds the fields that should be counted and are not yet, one transaction each: the field goes into
 * counted_fields and its documents are counted, with writers to the documents kept out meanwhile,
 * so that no document is counted twice or missed. Runs at start and after a seed. Returns how many.
 */
export async function countFields(store: Store): Promise<number> {
  const r = await store.query<{ id: number }>(
    `SELECT f.id FROM fields f
      WHERE f.type = 1 AND NOT f.multi_value AND f.parent_id IS NULL AND (f.prop & 32) = 0
        AND (f.list_id IS NOT NULL
             OR EXISTS (SELECT 1 FROM archives a WHERE a.views->>'statusField' = f.id::text))
        AND NOT EXISTS (SELECT 1 FROM counted_fields c WHERE c.field_id = f.id)
      ORDER BY f.id`,
  );
  for (const { id } of r.rows) {
    await store.transaction(async (tx) => {
      await tx.exec('LOCK TABLE documents IN SHARE MODE');
      const added = await tx.query('INSERT INTO counted_fields (field_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
      if (added.rowCount === 0) return;
      await tx.query(
        `INSERT INTO archive_doc_counts (field_id, term, archive_id, n)
         SELECT $1, counted_value(fields, $1), archive_id, count(*) FROM documents
          WHERE NOT deleted AND counted_value(fields, $1) IS NOT NULL GROUP BY 2, 3`,
        [id],
      );
    });
  }
  known.delete(store);
  return r.rows.length;
}

/** The counted fields, as this process last read them (a field missing here is counted the slow way). */
export async function countedFields(db: Queryable, now = Date.now()): Promise<Set<number>> {
  const hit = known.get(db);
  if (hit && now - hit.at < KNOWN_MS) return hit.ids;
  const r = await db.query<{ field_id: number }>('SELECT field_id FROM counted_fields');
  const ids = new Set(r.rows.map((x) => Number(x.field_id)));
  known.set(db, { ids, at: now });
  return ids;
}

/**
 * What searching a field needs that a change of the catalogue can leave missing: its sort indexes
 * (createFieldIndexes) and, for a list or status field, its counts. At start, and after the console
 * saves an archive (its fields, its view tabs) or a field (its list).
 */
export async function prepareFieldSearch(store: Store): Promise<void> {
  await createFieldIndexes(store);
  await countFields(store);
}
