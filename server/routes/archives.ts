/**
 * Archives, their fields and tabs, and list values (the user-app spec §7; src/api/archives.ts):
 *   GET api/dbs/{db}/archives                         -> ArchiveList (archives the user may view)
 *   GET api/dbs/{db}/archives/{a}?type=fields|tabs|info, ?index= -> FieldList | ViewTabList | Archive | ArchiveList
 *   GET api/dbs/{db}/lists/{listId}?index=            -> ListItems (at most TEXT_COMPLETE_MAX)
 *   GET api/indexes?database=&Field=&Filter1=&Filter2= -> ListItems (dynamic lists)
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Archive, ArchiveList, DYNAMIC_LIST_MAX, FieldList, ListItems, TEXT_COMPLETE_MAX, ViewTabList } from '../../src/api/archives.js';
import { archivesWithRights, visibleDatabases, type ArchiveRow } from '../auth/permissions.js';
import type { Queryable } from '../db/store.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { dataVersion } from '../search/data-version.js';
import { archiveFields, fieldById, fieldToWire } from '../search/model.js';
import { requireDatabase } from '../services/documents.js';

const VIEW = 1;
const Id = z.coerce.number().int().positive().max(2_147_483_647);
const OneQuery = z.looseObject({ type: z.enum(['fields', 'tabs', 'info']).optional(), index: z.string().optional() });
const ListQuery = z.looseObject({ index: z.string().optional() });
const IndexesQuery = z.looseObject({
  database: Id,
  Field: Id,
  Filter1: z.string().optional(),
  Filter2: z.string().optional(),
  index: z.string().optional(),
});

const COUNT_TTL_MS = 30_000;
/** Per database, as search/run.ts keeps its counts: two stores in one process must not share them. */
const countCaches = new WeakMap<Queryable, { at: number; version: string; byArchive: Map<number, number> }>();

/**
 * Documents per archive (not counting sub-archives), cached briefly: one grouped count for all.
 * Kept only while the documents' data version (search/data-version.ts) is the one it was counted
 * at, so any write (from any route or server process) is counted at once.
 */
async function archiveCounts(db: Queryable, now: number): Promise<Map<number, number>> {
  const version = await dataVersion(db);
  const cached = countCaches.get(db);
  if (cached && cached.version === version && now - cached.at < COUNT_TTL_MS) return cached.byArchive;
  const r = await db.query<{ archive_id: number; n: number }>('SELECT archive_id, count(*) AS n FROM documents WHERE NOT deleted GROUP BY archive_id');
  const byArchive = new Map(r.rows.map((x) => [x.archive_id, Number(x.n)]));
  countCaches.set(db, { at: now, version, byArchive });
  return byArchive;
}

const toWire = (a: ArchiveRow, counts: Map<number, number>): Archive => ({
  Id: a.id,
  ID: a.id,
  Name: a.name,
  Count: counts.get(a.id) ?? 0,
  Permissions: a.rights,
  Parent: a.parent_id,
  Props: a.props,
  FolderOptions: a.folder_options,
});

/** Sorts prefix matches first, then other matches, keeping list order within each. */
function filterItems(values: readonly string[], index: string | undefined, max: number): string[] {
  const needle = (index ?? '').trim().toLowerCase();
  if (!needle) return values.slice(0, max);
  const starts: string[] = [];
  const contains: string[] = [];
  for (const v of values) {
    const l = v.toLowerCase();
    if (l.startsWith(needle)) starts.push(v);
    else if (l.includes(needle)) contains.push(v);
  }
  return [...starts, ...contains].slice(0, max);
}

export function archiveRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.get('/api/dbs/:db/archives', async (request) => {
    const auth = requireAuth(request);
    const { db } = z.object({ db: Id }).parse(request.params);
    await requireDatabase(store, db);
    const list = (await archivesWithRights(store, db, auth.userId)).filter((a) => (a.rights & VIEW) !== 0);
    const counts = await archiveCounts(store, ctx.clock.now());
    return ArchiveList.parse(list.map((a) => toWire(a, counts)));
  });

  app.get('/api/dbs/:db/archives/:archiveId', async (request) => {
    const auth = requireAuth(request);
    const { db, archiveId } = z.object({ db: Id, archiveId: Id }).parse(request.params);
    const q = OneQuery.parse(request.query ?? {});
    await requireDatabase(store, db);
    const all = await archivesWithRights(store, db, auth.userId);
    const archive = all.find((a) => a.id === archiveId);
    if (!archive) throw Errors.notFound(`Archive ${archiveId} does not exist`);
    if ((archive.rights & VIEW) === 0) throw Errors.forbidden('You do not have permission to view this archive');
    if (q.type === 'fields') return FieldList.parse((await archiveFields(store, archiveId)).map(fieldToWire));
    if (q.type === 'tabs') {
      const v = archive.views ?? {};
      const values = v.enabled ? (v.values ?? []) : [];
      return ViewTabList.parse(values.map((t, i) => ({ ID: i + 1, Label: t.label, Color: t.color ?? null, Value: t.value ?? '' })));
    }
    const counts = await archiveCounts(store, ctx.clock.now());
    if (q.index !== undefined && q.type === undefined) {
      return ArchiveList.parse(all.filter((a) => a.parent_id === archiveId && (a.rights & VIEW) !== 0).map((a) => toWire(a, counts)));
    }
    return Archive.parse(toWire(archive, counts));
  });

  app.get('/api/dbs/:db/lists/:listId', async (request) => {
    const auth = requireAuth(request);
    const { db, listId } = z.object({ db: Id, listId: Id }).parse(request.params);
    const q = ListQuery.parse(request.query ?? {});
    await requireDatabase(store, db);
    if (!(await visibleDatabases(store, auth.userId, auth.isAdminAll)).some((d) => d.id === db)) throw Errors.forbidden();
    const list = (await store.query<{ kind: number }>('SELECT kind FROM lists WHERE id = $1 AND database_id = $2', [listId, db])).rows[0];
    if (!list) throw Errors.notFound(`List ${listId} does not exist`);
    const r =
      list.kind === 2
        ? await store.query<{ value: string }>('SELECT value FROM dynamic_list_rows WHERE list_id = $1 GROUP BY value ORDER BY min(id)', [listId])
        : await store.query<{ value: string }>('SELECT value FROM list_values WHERE list_id = $1 ORDER BY position', [listId]);
    return ListItems.parse({ Items: filterItems(r.rows.map((x) => x.value), q.index, TEXT_COMPLETE_MAX) });
  });

  app.get('/api/indexes', async (request) => {
    const auth = requireAuth(request);
    const q = IndexesQuery.parse(request.query ?? {});
    await requireDatabase(store, q.database);
    if (!(await visibleDatabases(store, auth.userId, auth.isAdminAll)).some((d) => d.id === q.database)) throw Errors.forbidden();
    const field = await fieldById(store, q.database, q.Field);
    if (!field) throw Errors.notFound(`Field ${q.Field} does not exist`);
    if (field.list_id === null) return ListItems.parse({ Items: [] });
    const f1 = q.Filter1?.trim() ? q.Filter1.trim().toLowerCase() : null;
    const f2 = q.Filter2?.trim() ? q.Filter2.trim().toLowerCase() : null;
    const list = (await store.query<{ kind: number }>('SELECT kind FROM lists WHERE id = $1', [field.list_id])).rows[0];
    let values: string[];
    if (list?.kind === 2) {
      const r = await store.query<{ value: string }>(
        `SELECT DISTINCT value FROM dynamic_list_rows
          WHERE list_id = $1 AND ($2::text IS NULL OR lower(filter1) = $2) AND ($3::text IS NULL OR lower(filter2) = $3)
          ORDER BY value`,
        [field.list_id, f1, f2],
      );
      values = r.rows.map((x) => x.value);
    } else {
      const r = await store.query<{ value: string }>('SELECT value FROM list_values WHERE list_id = $1 ORDER BY position', [field.list_id]);
      values = r.rows.map((x) => x.value);
    }
    return ListItems.parse({ Items: filterItems(values, q.index, DYNAMIC_LIST_MAX) });
  });
}
