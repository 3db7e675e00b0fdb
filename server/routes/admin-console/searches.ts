/**
 * Saved searches in the administration console (the console spec §3 Search, §5, §7; contract and
 * rules in src/api/admin-searches.ts), over the tables the user app reads them from (searches,
 * search_archives, search_items, search_permissions, search_view_tabs; server/search/model.ts):
 *   GET/POST api/admin/databases/{db}/searches, GET/PUT/DELETE .../searches/{id}
 *   GET api/admin/databases/{db}/designer (archives with their fields, for the console's editors)
 * A saved search is what GET api/dbs/{db}/searches lists and runs at once: prompts carry their
 * field's type, list and Prop as the seed's do, so the user app needs nothing more.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminSearch,
  AdminSearchInput,
  AdminSearchList,
  AdminSearchSaved,
  CONTENT_SEARCH_FIELD,
  DesignerCatalog,
  splitParameters,
  validIcon,
  withoutVersionsArchives,
  type DroppedParameter,
} from '../../../src/api/admin-searches.js';
import { ARCHIVE_PROPS } from '../../../src/api/archives.js';
import { SEARCH_PROPS, SEARCH_SETTINGS, type SearchCondition } from '../../../src/api/search.js';
import { intArray, type Queryable } from '../../db/store.js';
import type { ServerContext } from '../../http/context.js';
import { ApiError, Errors } from '../../http/errors.js';
import { normaliseCondition } from '../../search/model.js';
import { requireDbAdmin } from './require-admin.js';

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DbParams = z.object({ db: Id });
const OneParams = z.object({ db: Id, id: Id });

export const ICON_INVALID_KEY = 'ADMIN_SEARCH_ICON_INVALID';

interface SearchRow {
  id: number;
  name: string;
  hash: string;
  parent_id: number | null;
  props: number;
  settings: number;
  icon: string | null;
  advanced_grouping: boolean;
  grant_all: boolean;
  multi_value: boolean;
  use_time: boolean;
  content_search_options: { phonics?: unknown; stemming?: unknown; fuzziness?: unknown } | null;
  archives: number[];
}

interface ItemRow {
  search_id: number;
  field_id: number | null;
  prompt: string;
  condition: string;
}

interface ArchiveInfo {
  id: number;
  name: string;
  parent_id: number | null;
  props: number;
  content_search: boolean;
  views: { enabled?: boolean; values?: { label?: string; value?: string; color?: string }[] } | null;
}

interface FieldInfo {
  id: number;
  name: string;
  type: number;
  prop: number;
  list_id: number | null;
}

async function loadSearches(db: Queryable, dbId: number, id?: number): Promise<AdminSearch[]> {
  const rows = (
    await db.query<SearchRow>(
      `SELECT s.id, s.name, s.hash, s.parent_id, s.props, s.settings, s.icon, s.advanced_grouping, s.grant_all, s.multi_value, s.use_time,
              s.content_search_options,
              ARRAY(SELECT sa.archive_id FROM search_archives sa WHERE sa.search_id = s.id ORDER BY sa.position, sa.archive_id) AS archives
         FROM searches s WHERE s.database_id = $1 AND ($2::int IS NULL OR s.id = $2) ORDER BY s.position, s.id`,
      [dbId, id ?? null],
    )
  ).rows;
  if (!rows.length) return [];
  const items = (
    await db.query<ItemRow>(
      `SELECT i.search_id, i.field_id, i.prompt, i.condition FROM search_items i JOIN searches s ON s.id = i.search_id
        WHERE s.database_id = $1 AND ($2::int IS NULL OR s.id = $2) ORDER BY i.search_id, i.position, i.id`,
      [dbId, id ?? null],
    )
  ).rows;
  return rows.map((s) => {
    const cs = s.content_search_options ?? {};
    const fuzz = Number(cs.fuzziness);
    return AdminSearch.parse({
      Id: s.id,
      Hash: s.hash,
      Name: s.name,
      Parent: s.parent_id ?? 0,
      Archives: (s.archives ?? []).map(Number),
      Icon: s.icon,
      Parameters: items
        .filter((i) => i.search_id === s.id)
        .map((i) => ({
          Field: i.field_id ?? CONTENT_SEARCH_FIELD,
          Prompt: i.prompt,
          Condition: i.field_id === null ? 'Contains' : normaliseCondition(i.condition),
        })),
      AdvancedGrouping: s.advanced_grouping,
      GrantAll: s.grant_all,
      ContentSearch: { Phonics: cs.phonics === true, Stemming: cs.stemming === true, Fuzziness: Number.isInteger(fuzz) && fuzz >= 0 && fuzz <= 5 ? fuzz : 0 },
      MultiValue: s.multi_value,
      DisplayViewTabs: (s.props & SEARCH_PROPS.displayViewTabs) !== 0,
      UseTime: s.use_time,
      ShownInList: (s.settings & SEARCH_SETTINGS.shownInList) !== 0,
      IsDefault: (s.settings & SEARCH_SETTINGS.default) !== 0,
    });
  });
}

async function archivesOf(db: Queryable, dbId: number): Promise<ArchiveInfo[]> {
  return (await db.query<ArchiveInfo>('SELECT id, name, parent_id, props, content_search, views FROM archives WHERE database_id = $1 ORDER BY position, id', [dbId])).rows;
}

/** The fields of the given archives and of their sub-archives, each once. */
async function fieldsOfArchives(db: Queryable, archiveIds: readonly number[], all: readonly ArchiveInfo[]): Promise<Map<number, FieldInfo>> {
  const ids = [...archiveIds];
  for (let i = 0; i < ids.length; i++) for (const a of all) if (a.parent_id === ids[i] && !ids.includes(a.id)) ids.push(a.id);
  if (!ids.length) return new Map();
  const r = await db.query<FieldInfo>(
    `SELECT DISTINCT f.id, f.name, f.type, f.prop, f.list_id FROM archive_fields af JOIN fields f ON f.id = af.field_id WHERE af.archive_id = ANY($1::int[])`,
    [intArray(ids)],
  );
  return new Map(r.rows.map((f) => [f.id, f]));
}

async function checkParent(db: Queryable, dbId: number, parent: number, selfId: number | null): Promise<number | null> {
  if (parent === 0) return null;
  if (parent === selfId) throw Errors.badRequest('Incorrect parameters: a search cannot be its own parent');
  const r = await db.query<{ id: number; parent_id: number | null }>('SELECT id, parent_id FROM searches WHERE database_id = $1', [dbId]);
  const byId = new Map(r.rows.map((s) => [s.id, s.parent_id]));
  if (!byId.has(parent)) throw Errors.badRequest(`Incorrect parameters: Parent ${parent} is not a search of this database`);
  const seen = new Set<number>();
  for (let p: number | null | undefined = parent; p != null && !seen.has(p); p = byId.get(p)) {
    if (p === selfId) throw Errors.badRequest('Incorrect parameters: the parent is one of this search’s own sub-searches');
    seen.add(p);
  }
  return parent;
}

interface Saved {
  id: number;
  dropped: DroppedParameter[];
  removed: number[];
}

async function saveSearch(tx: Queryable, dbId: number, body: unknown, selfId: number | null): Promise<Saved> {
  const input = AdminSearchInput.parse(body);
  const icon = input.Icon?.trim() ? input.Icon.trim() : null;
  if (!validIcon(icon)) throw new ApiError(400, `Incorrect parameters: "${icon}" is not a Material Icons name`, ICON_INVALID_KEY);

  const archives = await archivesOf(tx, dbId);
  const unknown = input.Archives.filter((a) => !archives.some((x) => x.id === a));
  if (unknown.length) throw Errors.badRequest(`Incorrect parameters: archive ${unknown.join(', ')} is not an archive of this database`);
  const { kept: archiveIds, removed } = withoutVersionsArchives(input.Archives, archives);
  const fields = await fieldsOfArchives(tx, archiveIds, archives);
  const { kept: params, dropped } = splitParameters(input.Parameters, (p) => p.Field, new Set(fields.keys()));
  const parent = await checkParent(tx, dbId, input.Parent, selfId);

  let old: { props: number; settings: number } | undefined;
  if (selfId !== null) {
    old = (await tx.query<{ props: number; settings: number }>('SELECT props, settings FROM searches WHERE id = $1 AND database_id = $2 FOR UPDATE', [selfId, dbId])).rows[0];
    if (!old) throw Errors.notFound(`Search ${selfId} does not exist`);
  }
  const hasContent = params.some((p) => p.Field === CONTENT_SEARCH_FIELD);
  const props =
    ((old?.props ?? 0) & ~(SEARCH_PROPS.contentSearch | SEARCH_PROPS.displayViewTabs)) |
    (hasContent ? SEARCH_PROPS.contentSearch : 0) |
    (input.DisplayViewTabs ? SEARCH_PROPS.displayViewTabs : 0);
  const settings =
    ((old?.settings ?? 0) & ~(SEARCH_SETTINGS.shownInList | SEARCH_SETTINGS.default)) |
    (input.ShownInList ? SEARCH_SETTINGS.shownInList : 0) |
    (input.IsDefault ? SEARCH_SETTINGS.default : 0);
  const cs = { phonics: input.ContentSearch.Phonics, stemming: input.ContentSearch.Stemming, fuzziness: input.ContentSearch.Fuzziness };
  const values = [input.Name, parent, props, settings, icon, input.AdvancedGrouping, input.GrantAll, input.MultiValue, input.UseTime, JSON.stringify(cs)];

  let id: number;
  if (selfId === null) {
    const hash = `s${dbId}-${randomBytes(6).toString('hex')}`;
    const r = await tx.query<{ id: number }>(
      `INSERT INTO searches (database_id, hash, position, name, parent_id, props, settings, icon, advanced_grouping, grant_all, multi_value, use_time, content_search_options)
       VALUES ($11, $12, COALESCE((SELECT max(position) + 1 FROM searches WHERE database_id = $11), 1), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) RETURNING id`,
      [...values, dbId, hash],
    );
    id = r.rows[0]!.id;
  } else {
    id = selfId;
    await tx.query(
      `UPDATE searches SET name = $1, parent_id = $2, props = $3, settings = $4, icon = $5, advanced_grouping = $6, grant_all = $7, multi_value = $8,
              use_time = $9, content_search_options = $10::jsonb WHERE id = $11`,
      [...values, id],
    );
  }
  if (input.IsDefault) {
    await tx.query('UPDATE searches SET settings = settings & ~$1::int WHERE database_id = $2 AND id <> $3', [SEARCH_SETTINGS.default, dbId, id]);
  }

  await tx.query('DELETE FROM search_archives WHERE search_id = $1', [id]);
  for (let i = 0; i < archiveIds.length; i++) await tx.query('INSERT INTO search_archives (search_id, archive_id, position) VALUES ($1, $2, $3)', [id, archiveIds[i], i]);

  // Prompts keep their ids position by position, so a user's criteria for an unchanged search still apply.
  const existing = (await tx.query<{ id: number }>('SELECT id FROM search_items WHERE search_id = $1 ORDER BY position, id', [id])).rows.map((r) => r.id);
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    const f = p.Field === CONTENT_SEARCH_FIELD ? null : fields.get(p.Field)!;
    const condition: SearchCondition = f ? p.Condition : 'Contains';
    const row = [f?.id ?? null, p.Prompt.trim() || f?.name || '', f?.list_id ?? null, f?.prop ?? 0, f?.type ?? 0, condition === 'Range' ? JSON.stringify(['', '']) : null, condition, i];
    const itemId = existing[i];
    if (itemId !== undefined) {
      await tx.query('UPDATE search_items SET field_id = $1, prompt = $2, list_id = $3, prop = $4, type = $5, val = NULL, mval = $6::jsonb, condition = $7, position = $8 WHERE id = $9', [...row, itemId]);
    } else {
      await tx.query('INSERT INTO search_items (field_id, prompt, list_id, prop, type, mval, condition, position, search_id) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)', [...row, id]);
    }
  }
  if (existing.length > params.length) await tx.query('DELETE FROM search_items WHERE id = ANY($1::int[])', [intArray(existing.slice(params.length))]);

  if (input.GrantAll) {
    // §3 grantAll: every user and every group may run the search (right 1), added to what they had.
    await tx.query(
      `INSERT INTO search_permissions (search_id, user_id, rights) SELECT $1, u.id, 1 FROM users u
       ON CONFLICT (search_id, coalesce(user_id, 0), coalesce(group_id, 0)) DO UPDATE SET rights = search_permissions.rights | 1`,
      [id],
    );
    await tx.query(
      `INSERT INTO search_permissions (search_id, group_id, rights) SELECT $1, g.id, 1 FROM groups g
       ON CONFLICT (search_id, coalesce(user_id, 0), coalesce(group_id, 0)) DO UPDATE SET rights = search_permissions.rights | 1`,
      [id],
    );
  }

  if (input.DisplayViewTabs) {
    // The view tabs are the views of the first of the search's archives that has them enabled, after
    // an 'All' tab (no value: no filter) as the demo's searches have, since the user app opens the first tab.
    const withViews = archiveIds.map((a) => archives.find((x) => x.id === a)).find((a) => a?.views?.enabled && (a.views.values?.length ?? 0) > 0);
    const tabCount = Number((await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM search_view_tabs WHERE search_id = $1', [id])).rows[0]?.n ?? 0);
    if (withViews && tabCount === 0) {
      const vals = [{ label: 'All', value: '', color: '#757575' }, ...(withViews.views?.values ?? [])];
      for (let i = 0; i < vals.length; i++) {
        const v = vals[i]!;
        await tx.query('INSERT INTO search_view_tabs (search_id, label, color, value, position) VALUES ($1, $2, $3, $4, $5)', [id, v.label ?? v.value ?? '', v.color ?? null, v.value ?? '', i]);
      }
    }
  }
  return { id, dropped: dropped.map((p) => ({ Field: p.Field, Prompt: p.Prompt })), removed };
}

export function adminSearchRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  app.get('/api/admin/databases/:db/searches', async (request) => {
    const { db } = DbParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    return AdminSearchList.parse(await loadSearches(store, db));
  });

  app.get('/api/admin/databases/:db/searches/:id', async (request) => {
    const { db, id } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const [s] = await loadSearches(store, db, id);
    if (!s) throw Errors.notFound(`Search ${id} does not exist`);
    return s;
  });

  const answer = async (dbId: number, saved: Saved) => {
    const [s] = await loadSearches(store, dbId, saved.id);
    return AdminSearchSaved.parse({ Search: s, Dropped: saved.dropped, RemovedArchives: saved.removed });
  };

  app.post('/api/admin/databases/:db/searches', async (request) => {
    const { db } = DbParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const saved = await store.transaction((tx) => saveSearch(tx, db, request.body, null));
    return answer(db, saved);
  });

  app.put('/api/admin/databases/:db/searches/:id', async (request) => {
    const { db, id } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const saved = await store.transaction((tx) => saveSearch(tx, db, request.body, id));
    return answer(db, saved);
  });

  app.delete('/api/admin/databases/:db/searches/:id', async (request, reply) => {
    const { db, id } = OneParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const r = await store.query('DELETE FROM searches WHERE id = $1 AND database_id = $2', [id, db]);
    if (r.rowCount === 0) throw Errors.notFound(`Search ${id} does not exist`);
    return reply.code(204).send();
  });

  app.get('/api/admin/databases/:db/designer', async (request) => {
    const { db } = DbParams.parse(request.params);
    await requireDbAdmin(store, request, db);
    const archives = await archivesOf(store, db);
    const r = await store.query<{ archive_id: number; id: number; name: string; type: number }>(
      `SELECT af.archive_id, f.id, f.name, f.type FROM archive_fields af JOIN fields f ON f.id = af.field_id JOIN archives a ON a.id = af.archive_id
        WHERE a.database_id = $1 ORDER BY af.archive_id, af.position, f.id`,
      [db],
    );
    return DesignerCatalog.parse({
      Archives: archives.map((a) => ({
        Id: a.id,
        Name: a.name,
        Parent: a.parent_id,
        IsVersions: (a.props & ARCHIVE_PROPS.versionsArchive) !== 0,
        ContentSearch: a.content_search,
        Fields: r.rows.filter((f) => f.archive_id === a.id).map((f) => ({ Id: f.id, Name: f.name, Type: f.type })),
      })),
    });
  });
}
