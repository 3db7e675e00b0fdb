/**
 * Saved searches and their results (the user-app spec §3, §4, §7; src/api/search.ts):
 *   GET api/dbs/{db}/searches                                   -> SearchList (SearchListEntry)
 *   GET api/dbs/{db}/searches/{id}[?SearchCriteria=&count=true] -> SearchDetail
 *   GET api/dbs/{db}/searches/{id}/archive/{a}/documents        -> DocumentPage
 * Results only ever include documents of archives the user may view (bit 1).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RECORDS_PER_PAGE, normaliseRecordsPerPage } from '../../src/api/constants.js';
import { DocumentPage, SEARCH_PROPS, SearchDetail, SearchListEntry, type ArchiveCount } from '../../src/api/search.js';
import { archivesWithRights, withDescendants, type ArchiveRow } from '../auth/permissions.js';
import { requireAuth, type ServerContext } from '../http/context.js';
import { Errors } from '../http/errors.js';
import { archiveFields, fieldToWire, promptsOf, searchesOf, tabsOf, type SearchRow } from '../search/model.js';
import { parseCriteria, parseSort } from '../search/query.js';
import { requireDatabase } from '../services/documents.js';
import { countMatches, runPage, type Scope } from '../search/run.js';

const VIEW = 1;
const Id = z.coerce.number().int().positive().max(2_147_483_647);
const DbParams = z.object({ db: Id });
const SearchParams = z.object({ db: Id, searchId: Id });
const DocsParams = z.object({ db: Id, searchId: Id, archiveId: Id });
const flag = z
  .union([z.string(), z.boolean()])
  .optional()
  .transform((v) => v === true || (typeof v === 'string' && v.toLowerCase() === 'true'));

const DetailQuery = z.looseObject({ SearchCriteria: z.string().optional(), count: flag, Count: flag });
const DocsQuery = z.looseObject({
  page: z.preprocess((v) => (v === '' ? undefined : v), Id.optional()),
  Page: z.preprocess((v) => (v === '' ? undefined : v), Id.optional()),
  RecordsPerPage: z.unknown().optional(),
  SearchCriteria: z.string().optional(),
  sort: z.string().optional(),
  Sort: z.string().optional(),
  tabID: z.preprocess((v) => (v === '' ? undefined : v), Id.optional()),
  Count: flag,
  count: flag,
});

/** The search if the user may run it: its own permissions allow it and the user may view one of its archives. */
function runnable(s: SearchRow, archives: ReadonlyMap<number, ArchiveRow>): boolean {
  return s.allowed && s.archives.some((a) => ((archives.get(a)?.rights ?? 0) & VIEW) !== 0);
}

export function searchRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;

  async function loadContext(userId: number, dbId: number, searchId: number) {
    await requireDatabase(store, dbId);
    const [search] = await searchesOf(store, dbId, userId, searchId);
    if (!search) throw Errors.notFound(`Search ${searchId} does not exist`);
    const list = await archivesWithRights(store, dbId, userId);
    const archives = new Map(list.map((a) => [a.id, a]));
    if (!runnable(search, archives)) throw Errors.forbidden('You do not have permission to run this search');
    return { search, list, archives };
  }

  /** Archive ids searched for `archiveId`: it and its sub-archives, those the user may view. */
  function scopeIds(list: readonly ArchiveRow[], archives: ReadonlyMap<number, ArchiveRow>, archiveId: number): number[] {
    return withDescendants(list, archiveId).filter((id) => ((archives.get(id)?.rights ?? 0) & VIEW) !== 0);
  }

  app.get('/api/dbs/:db/searches', async (request) => {
    const auth = requireAuth(request);
    const { db } = DbParams.parse(request.params);
    await requireDatabase(store, db);
    const archives = new Map((await archivesWithRights(store, db, auth.userId)).map((a) => [a.id, a]));
    const searches = await searchesOf(store, db, auth.userId);
    return searches
      .filter((s) => runnable(s, archives))
      .map((s) =>
        SearchListEntry.parse({
          Id: s.id,
          Name: s.name,
          Hash: s.hash,
          Parent: s.parent_id,
          Archives: s.archives.filter((a) => ((archives.get(a)?.rights ?? 0) & VIEW) !== 0),
          Props: s.props,
          Settings: s.settings,
          Icon: s.icon,
        }),
      );
  });

  app.get('/api/dbs/:db/searches/:searchId', async (request) => {
    const auth = requireAuth(request);
    const { db, searchId } = SearchParams.parse(request.params);
    const q = DetailQuery.parse(request.query ?? {});
    const { search, list, archives } = await loadContext(auth.userId, db, searchId);
    const prompts = await promptsOf(store, search.id);
    const visible = search.archives.map((id) => archives.get(id)).filter((a): a is ArchiveRow => !!a && (a.rights & VIEW) !== 0);
    const answer: SearchDetail = {
      Id: search.id,
      Name: search.name,
      Hash: search.hash,
      Parent: search.parent_id,
      Archives: visible.map((a) => a.id),
      Props: search.props,
      Settings: search.settings,
      Icon: search.icon,
      Detail: prompts.map((p) => p.wire),
      ArchiveList: visible.map((a) => ({ Id: a.id, Name: a.name, Parent: a.parent_id, Props: a.props, Permissions: a.rights })),
    };
    if ((search.props & SEARCH_PROPS.displayViewTabs) !== 0) {
      answer.Tabs = (await tabsOf(store, search.id)).map((t) => ({ ID: t.id, Label: t.label, Color: t.color, Value: t.value ?? '' }));
      const statusField = visible.map((a) => a.views?.statusField).find((f) => typeof f === 'number');
      answer.StatusField = statusField ?? null;
    }
    if (q.count || q.Count) {
      const conds = parseCriteria(q.SearchCriteria, prompts);
      const counts: ArchiveCount[] = [];
      for (const a of visible) {
        const fields = await archiveFields(store, a.id);
        const n = await countMatches(store, { archiveIds: scopeIds(list, archives, a.id), fields }, conds, { trgm: store.hasTrgm, now: ctx.clock.now() });
        counts.push({ Id: a.id, Name: a.name, Count: n });
      }
      answer.ArchiveCounts = counts;
    }
    return SearchDetail.parse(answer);
  });

  app.get('/api/dbs/:db/searches/:searchId/archive/:archiveId/documents', async (request) => {
    const auth = requireAuth(request);
    const { db, searchId, archiveId } = DocsParams.parse(request.params);
    const q = DocsQuery.parse(request.query ?? {});
    const { search, list, archives } = await loadContext(auth.userId, db, searchId);
    const archive = archives.get(archiveId);
    const inSearch = search.archives.some((a) => withDescendants(list, a).includes(archiveId));
    if (!archive || !inSearch) throw Errors.notFound(`Archive ${archiveId} is not searched by this search`);
    if ((archive.rights & VIEW) === 0) throw Errors.forbidden('You do not have permission to view this archive');

    const fields = await archiveFields(store, archiveId);
    const prompts = await promptsOf(store, search.id);
    const conds = parseCriteria(q.SearchCriteria, prompts);
    const sort = parseSort(q.sort ?? q.Sort, fields);
    const scope: Scope = { archiveIds: scopeIds(list, archives, archiveId), fields };
    if (q.tabID !== undefined) {
      if ((search.props & SEARCH_PROPS.displayViewTabs) === 0) throw Errors.badRequest('Incorrect parameters: this search has no view tabs');
      const tab = (await tabsOf(store, search.id)).find((t) => t.id === q.tabID);
      if (!tab) throw Errors.badRequest(`Incorrect parameters: tabID ${q.tabID} is not a tab of this search`);
      const statusField = search.archives.map((id) => archives.get(id)?.views?.statusField).find((f) => typeof f === 'number');
      if (statusField !== undefined) scope.tab = { fieldId: statusField, value: tab.value ?? '' };
    }
    const size = normaliseRecordsPerPage(q.RecordsPerPage, RECORDS_PER_PAGE.configDefault);
    const result = await runPage(
      store,
      scope,
      conds,
      { page: q.page ?? q.Page ?? 1, size, sort, freshCount: q.Count || q.count },
      { trgm: store.hasTrgm, now: ctx.clock.now(), archives },
    );
    return DocumentPage.parse({
      Count: result.count,
      Docs: result.docs,
      Fields: fields.map(fieldToWire),
      Terms: result.terms,
      Permissions: archive.rights,
      FolderOptions: archive.folder_options,
    });
  });
}
