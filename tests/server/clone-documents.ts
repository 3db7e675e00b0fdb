/**
 * Documents made straight in SQL for the job tests and the jobs bench: clones of an archive's seeded
 * documents (fields, files and pages), each with a title of its own so that a copy made from it
 * can be told apart from every other document (the copy keeps the title). Also the plain SQL copy
 * (INSERT ... SELECT of documents, document_files and document_pages) that the bench compares the
 * copy job with. Plain SQL that PostgreSQL 15 and PGlite (18) both accept.
 */

export interface SqlRunner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount?: number | null }>;
}

/** The demo catalogue's Title field (server/seed/catalog.ts): in every archive of the first database. */
export const TITLE_FIELD = 1;

/**
 * The mapping table both statements below fill from: one row per new document, its id taken from
 * the documents sequence, and the document it is made from.
 */
async function copyRows(db: SqlRunner, map: string, archiveId: number, titleOf: string | null): Promise<number> {
  // Titles are set on the clone only (titleOf); a plain copy keeps the source's fields as they are.
  const fields = titleOf === null ? 's.fields' : `jsonb_set(s.fields, '{${TITLE_FIELD}}', to_jsonb(${titleOf}))`;
  const docs = await db.query(
    `INSERT INTO documents (id, archive_id, secure_hash, fields, mvals, version, file_name, file_type, page_count, content_text, created_at, created_by, modified_at, modified_by)
     SELECT m.new_id, $1, md5(m.new_id::text || ':' || m.src_id::text || ':' || clock_timestamp()::text), ${fields}, s.mvals, 1,
            s.file_name, s.file_type, s.page_count, s.content_text, now(), s.created_by, now(), s.modified_by
       FROM ${map} m JOIN documents s ON s.id = m.src_id`,
    [archiveId],
  );
  await db.query(
    `INSERT INTO document_files (document_id, position, sha256, file_name, file_type, page_count)
     SELECT m.new_id, f.position, f.sha256, f.file_name, f.file_type, f.page_count
       FROM ${map} m JOIN document_files f ON f.document_id = m.src_id`,
  );
  await db.query(
    `INSERT INTO document_pages (document_id, page_no, file_id, page_in_file, rotation, text)
     SELECT m.new_id, p.page_no, nf.id, p.page_in_file, p.rotation, p.text
       FROM ${map} m
       JOIN document_pages p ON p.document_id = m.src_id
       LEFT JOIN document_files sf ON sf.id = p.file_id
       LEFT JOIN document_files nf ON nf.document_id = m.new_id AND nf.position = sf.position`,
  );
  return docs.rowCount ?? 0;
}

/**
 * Makes `count` new documents in `archiveId`, cloned round-robin from that archive's documents, titled
 * `${prefix}${n}` (n = 1..count). Answers their ids and SecureIds (secure_hash), in n order.
 */
export async function cloneDocuments(db: SqlRunner, opts: { archiveId: number; count: number; prefix: string }): Promise<{ id: number; hash: string; title: string }[]> {
  const map = await mapTable(db, 'clone_map');
  await db.query(
    `INSERT INTO ${map} (n, new_id, src_id)
     SELECT g.n, nextval(pg_get_serial_sequence('documents', 'id')), t.id
       FROM generate_series(1, $2::integer) AS g(n)
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS rn, count(*) OVER () AS cnt
               FROM documents WHERE archive_id = $1 AND NOT deleted) t
         ON t.rn = ((g.n - 1) % t.cnt) + 1`,
    [opts.archiveId, opts.count],
  );
  await copyRows(db, map, opts.archiveId, `'${opts.prefix.replace(/'/g, "''")}' || m.n::text`);
  const r = await db.query<{ id: number | string; hash: string; title: string }>(
    `SELECT d.id, d.secure_hash AS hash, d.fields->>'${TITLE_FIELD}' AS title FROM ${map} m JOIN documents d ON d.id = m.new_id ORDER BY m.n`,
  );
  await db.query(`DROP TABLE ${map}`);
  if (r.rows.length !== opts.count) throw new Error(`archive ${opts.archiveId} has no documents to clone (seed more)`);
  return r.rows.map((x) => ({ id: Number(x.id), hash: x.hash, title: x.title }));
}

/**
 * The plain SQL copy the bench compares the job with: the given documents into `archiveId`, their
 * files and pages, in the statements a hand-written bulk copy would use. Answers how many documents.
 */
export async function sqlCopyDocuments(db: SqlRunner, ids: readonly number[], archiveId: number): Promise<number> {
  const map = await mapTable(db, 'copy_map');
  await db.query(
    `INSERT INTO ${map} (n, new_id, src_id)
     SELECT s.n, nextval(pg_get_serial_sequence('documents', 'id')), s.id::bigint
       FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS s(id, n)`,
    // As JSON: both stores pass it the same way (PGlite's driver would not take a JS array here).
    [JSON.stringify(ids)],
  );
  const n = await copyRows(db, map, archiveId, null);
  await db.query(`DROP TABLE ${map}`);
  return n;
}

/**
 * A temp table for the mapping (dropped after use; after an error, with the transaction or the
 * session: a DROP in a failed transaction would only hide the error).
 */
async function mapTable(db: SqlRunner, prefix: string): Promise<string> {
  const name = `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  await db.query(`CREATE TEMP TABLE ${name} (n integer PRIMARY KEY, new_id bigint NOT NULL, src_id bigint NOT NULL)`);
  return name;
}
