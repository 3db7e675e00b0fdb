/**
 * /results/{searchHash}: header, view tabs, archive choice, pager, column controls, the grid and the
 * history sidebar. State lives in three places: the address (search, archive, criteria, tab), the
 * stored grid state (columns, sort, page size: Dexie gridState via useGridState) and the page cache
 * (Dexie pages via useResultPage). The rules are in grid-logic.ts.
 */
import { useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useLiveQuery } from 'dexie-react-hooks';
import { RECORDS_PER_PAGE, THUMBNAIL } from '../../../api/constants';
import type { ResultSet } from '../../../api/search';
import { getToken, sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import type { CachedPage } from '../../../db/db';
import { readLocalSettings } from '../../../db/local-settings';
import { documentLabelOf } from '../../../fields/document-label';
import type { GridEditing } from '../../../ui/grid-editing';
import { useArchiveCounts, useResultsSearch } from '../api/get-search';
import { mergeArchiveCounts } from '../archive-choices';
import {
  HITS_COLUMN, applyColumnState, buildColumns, buildRows, buildSortParam, checkPageSize, columnsToState, contentPromptIds,
  docsHaveVersion, effectiveSort, fallbackPage, hasHitsMarker, moveColumn, sortDocsLocally, totalPages,
  type ColumnView, type DocLike, type SortSpec,
} from '../grid-logic';
import { searchGridStateKey } from '../grid-state';
import { clearArchivePages, requestPersistentStorage, searchGridKey } from '../page-cache';
import { useGridError } from '../use-grid-error';
import { useGridState } from '../use-grid-state';
import { useResultPage } from '../use-result-page';
import { ArchivePicker } from './archive-picker';
import { ColumnsMenu } from './columns-menu';
import { NoMatches } from './no-matches';
import { PageSizeControl } from './page-size-control';
import { Pager } from './pager';
import { LazyResultsGrid as ResultsGrid } from './lazy-results-grid';
import { ThumbPreview } from './thumb-preview';
import { ContextMenu, type ContextMenuItem } from '../../../ui/context-menu';
import { db as appDb } from '../../../db/db';
import {
  checkedOnPage, emptySelection, inScope, pageAllChecked, removeDocs, selectedDocs, selectionScope, setPageChecked, toggleDoc, type SelectedDoc,
} from '../selection';
import { ViewTabs } from './view-tabs';
import { browserAppLocale } from '../../../i18n/locale';
import { cellFormatter } from '../cell-format';
import '../results.css';
import { documentThumbUrl } from '../../../api/documents';
import { BURST_KEYS, isBurstable } from '../../../api/burst';
import { notify } from '../../../ui/notifications';

const NO_CHECKS: ReadonlySet<number> = new Set();
const NO_FIELDS: unknown[] = [];

/**
 * The document actions slot (copy, move, delete): a hook the route passes in, so this feature does
 * not import another one (the route composes them). It gets the selection and says what it adds to
 * the toolbar, to a row's menu and as dialogs; it reports a finished job so the grid refreshes.
 */
export interface ResultsActionsInput {
  scope: string | null;
  dbId: number;
  archiveId: number;
  archivePermissions: number | null;
  licenceType: number | undefined;
  selection: readonly SelectedDoc[];
  onDocumentsChanged: (change: { archiveIds: number[]; gone: { archiveId: number; id: number }[] }) => void;
}
export interface ResultsActions {
  toolbar: ReactNode;
  rowMenuItems: (doc: SelectedDoc) => ContextMenuItem[];
  dialogs: ReactNode;
}
export type UseResultsActions = (input: ResultsActionsInput) => ResultsActions;
const NO_ACTIONS: ResultsActions = { toolbar: null, rowMenuItems: () => [], dialogs: null };
const useNoActions: UseResultsActions = () => NO_ACTIONS;

/**
 * The export slot (features/export, passed in by the route like the document actions): it gets what
 * an export names (the search, its criteria and count, the selection, the fields in column order)
 * and adds its buttons to the toolbar and its dialog.
 */
export interface ResultsExportInput {
  dbId: number;
  searchId: number;
  archiveId: number;
  criteria: string;
  archivePermissions: number | null;
  licenceType: number | undefined;
  selection: readonly SelectedDoc[];
  count: number | null;
  fields: readonly { id: number; name: string; visible: boolean }[];
}
export type UseResultsExport = (input: ResultsExportInput) => { toolbar: ReactNode; dialogs: ReactNode };
const useNoExport: UseResultsExport = () => ({ toolbar: null, dialogs: null });

/**
 * The bulk update slot (features/bulk-update, passed in by the route): it gets the search, the
 * archive's Props and rights, the selection and the result set's fields, adds its button and
 * dialogs, and reports a finished job so the grid refreshes.
 */
export interface ResultsBulkUpdateInput extends Omit<ResultsExportInput, 'fields'> {
  archiveProps: number | null;
  fields: readonly unknown[];
  onDocumentsChanged: ResultsActionsInput['onDocumentsChanged'];
}
export type UseResultsBulkUpdate = (input: ResultsBulkUpdateInput) => { toolbar: ReactNode; dialogs: ReactNode };
const useNoBulkUpdate: UseResultsBulkUpdate = () => ({ toolbar: null, dialogs: null });

/**
 * The import slot (features/import, passed in by the route): documents with index data from a CSV
 * and files into the archive on screen; it gets the archive's Props and rights, adds its button and
 * dialog, and reports a finished job so the grid refreshes.
 */
export interface ResultsImportInput {
  scope: string | null;
  dbId: number;
  archiveId: number;
  archiveProps: number | null;
  archivePermissions: number | null;
  licenceType: number | undefined;
  onDocumentsChanged: ResultsActionsInput['onDocumentsChanged'];
}
export type UseResultsImport = (input: ResultsImportInput) => { toolbar: ReactNode; dialogs: ReactNode };
const useNoImport: UseResultsImport = () => ({ toolbar: null, dialogs: null });

/** What the screen reads of the app's configuration (src/app/config.ts AppConfig; the route passes it). */
export interface ResultsConfig {
  apiBaseUrl: string;
  defaultRecordsPerPage: number;
  gridLicenseKey: string;
}

/**
 * The index editing slot (features/editing, passed in by the route like the document actions): it
 * gets the page and gives the rows with its overlay, the grid's editing seam (src/ui/grid-editing.ts)
 * and its controls, alerts and side panel to place. Without it the grid is read-only.
 */
export interface ResultsEditingInput {
  scope: string | null;
  dbId: number;
  archiveId: number;
  docs: readonly DocLike[];
  fields: readonly unknown[];
  columns: readonly ColumnView[];
  rows: unknown[][];
  licenceType: number | null | undefined;
  fetchedAt: number;
  reload: () => void;
  activeDocId: number | null;
}
export interface ResultsEditing {
  rows: unknown[][];
  grid: GridEditing | undefined;
  canToggle: boolean;
  canEditRow: (doc: DocLike) => boolean;
  editRow: (doc: DocLike) => void;
  controls: ReactNode;
  alerts: ReactNode;
  panel: ReactNode;
}
export type UseResultsEditing = (input: ResultsEditingInput) => ResultsEditing;
const useNoEditing: UseResultsEditing = (input) => ({
  rows: input.rows, grid: undefined, canToggle: false, canEditRow: () => false, editRow: () => undefined, controls: null, alerts: null, panel: null,
});

/** The history sidebar slot (features/history): the active row's document history and the archive history. */
export interface ResultsHistoryProps {
  id: string;
  db: number;
  archiveId: number;
  archivePermissions: number | null;
  doc: { id: number; hash: string; archiveId: number; permissions: number; archiveName?: string; label: string } | null;
  onClose: () => void;
}

/**
 * Opening a document in the viewer (features/viewer, passed in by the route): the document, the
 * documents of the page on screen (for next/previous in the viewer), the search and its terms, and
 * whether the user's setting asks for a new tab.
 */
export interface ResultsOpenDocumentInput {
  db: number;
  searchId: number;
  criteria: string;
  terms: readonly string[];
  doc: { id: number; hash: string; archiveId: number };
  page: readonly { id: number; hash: string; archiveId: number }[];
  newTab: boolean;
}

/**
 * The keep-offline slot (issue 12 item 7; the route passes the viewer's pinning): it gets the page's
 * documents and fields and adds "Keep offline" / "Remove from device" to a row's menu and for the
 * whole page to the header, and a word on the rows kept on the device.
 */
export interface ResultsPinningInput {
  dbId: number;
  archiveId: number;
  docs: readonly DocLike[];
  fields: readonly unknown[];
  fresh: boolean;
}
export interface ResultsPinning {
  toolbar: ReactNode;
  rowMenuItems: (doc: DocLike) => ContextMenuItem[];
  rowBadge?: (doc: DocLike) => string | null;
}
export type UseResultsPinning = (input: ResultsPinningInput) => ResultsPinning;
const NO_PINNING: ResultsPinning = { toolbar: null, rowMenuItems: () => [] };
const useNoPinning: UseResultsPinning = () => NO_PINNING;

export interface ResultsScreenProps {
  searchHash: string;
  openDocument?: (input: ResultsOpenDocumentInput) => void;
  config: ResultsConfig;
  useDocumentActions?: UseResultsActions;
  useExport?: UseResultsExport;
  useBulkUpdate?: UseResultsBulkUpdate;
  useImport?: UseResultsImport;
  useEditing?: UseResultsEditing;
  usePinning?: UseResultsPinning;
  HistorySidebar?: ComponentType<ResultsHistoryProps>;
  /** Burst a document (the archive-ops spec §4): the route opens it for choosing its pages; the screen checks §5's document refusals first. */
  burst?: (input: { db: number; doc: { id: number; hash: string; archiveId: number } }) => void;
}

/** Whether two page keys differ only by their sort (key layout: page-cache.ts pageKey). */
function sameExceptSort(a: string, b: string): boolean {
  const x = a.split('|');
  const y = b.split('|');
  return x.length === y.length && x.every((v, i) => i === 5 || v === y[i]);
}

/** The last page record the screen committed (kept on screen while the next page loads). */
class LastShown {
  page: CachedPage | null = null;
  note(page: CachedPage) {
    this.page = page;
  }
}

export function ResultsScreen({ searchHash, openDocument, config, useDocumentActions = useNoActions, useExport = useNoExport, useBulkUpdate = useNoBulkUpdate, useImport = useNoImport, useEditing = useNoEditing, usePinning = useNoPinning, HistorySidebar, burst }: ResultsScreenProps) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const scope = sessionScope(session);
  const db = Number(params.get('db')) || 0;
  const searchId = Number(params.get('Id')) || 0;
  const criteria = params.get('criteria') ?? '';

  const search = useResultsSearch(scope, db, searchId).data;
  const archives = useMemo(() => search?.ArchiveList ?? [], [search]);
  const archiveId = Number(params.get('archive')) || (archives[0]?.Id ?? 0);
  const multi = archives.length > 1;
  const counts = useArchiveCounts(scope, db, searchId, criteria, multi).data;
  const localSettings = useLiveQuery(() => readLocalSettings(), []);

  const tabs = useMemo(() => ((search?.Props ?? 0) & 32 ? (search?.Tabs ?? []) : []), [search]);
  const tabParam = params.get('tabID');
  const tab = tabParam !== null && tabParam !== '' ? Number(tabParam) : (tabs[0]?.ID ?? null);

  const grid = useGridState(searchGridStateKey(db, searchId, archiveId));
  const rpp = checkPageSize(params.get('rpp'), config.defaultRecordsPerPage);
  const pageSize = grid.state?.pageSize ? grid.state.pageSize : rpp.ok && rpp.size <= RECORDS_PER_PAGE.max ? rpp.size : config.defaultRecordsPerPage;
  const hits = hasHitsMarker(criteria, contentPromptIds(search?.Detail));
  const userSorts = useMemo(() => grid.state?.sort ?? [], [grid.state]);
  const sorts = useMemo(() => effectiveSort(userSorts, hits), [userSorts, hits]);
  const sortParam = buildSortParam(sorts);

  // The page goes back to 1 whenever what is paged changes.
  const pagedWhat = `${db}|${searchId}|${archiveId}|${criteria}|${tab}|${pageSize}|${sortParam}`;
  const [pageAt, setPageAt] = useState({ at: pagedWhat, page: 1 });
  const page = pageAt.at === pagedWhat ? pageAt.page : 1;
  const setPage = useCallback((p: number) => setPageAt({ at: pagedWhat, page: p }), [pagedWhat]);

  const rp = useResultPage({ scope, enabled: grid.ready && db > 0 && searchId > 0 && archiveId > 0, db, searchId, archiveId, criteria, sort: sortParam, tab, pageSize, page });

  // Keep the last page on screen while the next one loads (and sort it here when it is the whole set).
  const gridKey = searchGridKey(searchId, archiveId);
  // The last page shown, noted after each commit that showed one (a state set while rendering would
  // run this whole component twice on every page change).
  const [lastShown] = useState(() => new LastShown());
  useEffect(() => {
    if (rp.record) lastShown.note(rp.record);
  }, [rp.record, lastShown]);
  const prev = rp.record ?? lastShown.page;
  let shown: CachedPage | null = rp.record ?? null;
  let localSort = false;
  if (!shown && prev && prev.gridKey === gridKey) {
    const data = prev.data as ResultSet;
    if (sameExceptSort(prev.key, rp.key) && (data.Docs?.length ?? 0) >= data.Count) {
      shown = prev;
      localSort = true;
    } else if (!rp.offline) shown = prev;
  }
  const data = shown?.data as ResultSet | undefined;
  const count = data?.Count ?? 0;
  const pages = totalPages(count, pageSize);

  const formatCell = useMemo(() => cellFormatter(data?.Fields ?? [], browserAppLocale(i18n.language)), [data?.Fields, i18n.language]);
  const fieldTypes = useMemo(() => new Map((data?.Fields ?? []).flatMap((f) => (f && typeof f === 'object' && 'ID' in f ? [[Number((f as { ID: number }).ID), Number((f as { Type?: number }).Type ?? 1)] as [number, number]] : []))), [data?.Fields]);
  const docs: DocLike[] = useMemo(() => {
    const raw = (data?.Docs ?? []) as DocLike[];
    return localSort ? sortDocsLocally(raw, sorts, fieldTypes) : raw;
  }, [data?.Docs, localSort, sorts, fieldTypes]);

  const hasVersion = useMemo(() => docsHaveVersion(docs), [docs]);
  const defs = useMemo(
    () => buildColumns(data?.Fields ?? [], { hits, version: hasVersion, titles: { hits: t('RESULTS_HITS'), version: t('RESULTS_VERSION'), thumb: t('RESULTS_THUMB'), check: '✓' } }),
    [data?.Fields, hits, hasVersion, t],
  );
  const views = useMemo(() => applyColumnState(defs, grid.state?.columns), [defs, grid.state?.columns]);
  const visible = useMemo(() => views.filter((v) => !v.hidden), [views]);
  const pinned = visible.filter((v) => v.pinned).length;
  const rows = useMemo(() => buildRows(docs, views, NO_CHECKS), [docs, views]);

  // A page that came back empty while the search has results falls back to an earlier page.
  if (rp.record) {
    const d = rp.record.data as ResultSet;
    const back = fallbackPage(page, d.Docs?.length ?? 0, d.Count, pageSize);
    if (back !== null) setPage(back);
  }

  useEffect(() => {
    void requestPersistentStorage();
  }, []);

  const gridError = useGridError(rp.error, async () => {
    await grid.reset();
  });

  // Selection (the `check` column, kept across pages: selection.ts) and the row whose history is shown.
  const [selection, setSelection] = useState(emptySelection);
  const selScope = selectionScope({ db, searchId, archiveId, criteria, tab });
  const sel = inScope(selection, selScope);
  const docArchiveOf = useCallback((d: DocLike) => d.ArchiveId ?? d.Archive ?? archiveId, [archiveId]);
  const fieldList = data?.Fields;
  const asSelected = useCallback(
    (d: DocLike): SelectedDoc => ({ id: d.Id, hash: d.Hash, archiveId: docArchiveOf(d), title: documentLabelOf(d, fieldList ?? []) || (d.FileName ?? undefined) }),
    [docArchiveOf, fieldList],
  );
  // Only ids and archives per row: a packed page builds a row's Fields when read (packed-page.ts), so
  // titles are taken only for the rows being checked. Nothing at all while nothing is selected.
  const anySelected = sel.docs.size > 0;
  const pageKeys = useMemo(() => (anySelected ? docs.map((d) => ({ id: d.Id, archiveId: docArchiveOf(d) })) : []), [anySelected, docs, docArchiveOf]);
  const checkedIds = useMemo(() => (anySelected ? checkedOnPage(sel, pageKeys) : NO_CHECKS), [anySelected, sel, pageKeys]);
  const selected = useMemo(() => selectedDocs(sel), [sel]);
  const [activeDoc, setActiveDoc] = useState<DocLike | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [thumbDoc, setThumbDoc] = useState<DocLike | null>(null);
  const [menu, setMenu] = useState<{ doc: DocLike; at: { x: number; y: number } } | null>(null);
  const onContextMenu = useCallback((doc: DocLike, at: { x: number; y: number }) => setMenu({ doc, at }), []);

  const toggleCheck = useCallback((doc: DocLike) => setSelection((c) => toggleDoc(c, selScope, asSelected(doc))), [selScope, asSelected]);
  const allChecked = anySelected && pageAllChecked(sel, pageKeys);
  const toggleAll = () => {
    const page = allChecked ? docs.map((d) => ({ id: d.Id, hash: d.Hash, archiveId: docArchiveOf(d) })) : docs.map(asSelected);
    setSelection((c) => setPageChecked(c, selScope, page, !allChecked));
  };

  const saveColumns = (next: ColumnView[]) => grid.update({ columns: columnsToState(next) });
  const onSortChange = useCallback((next: SortSpec[]) => grid.update({ sort: next.filter((s) => s.column !== HITS_COLUMN) }), [grid]);
  const onResize = useCallback(
    (id: string, width: number) => grid.update({ columns: columnsToState(views.map((v) => (v.id === id ? { ...v, width } : v))) }),
    [grid, views],
  );

  const docArchive = (d: DocLike) => d.ArchiveId ?? d.Archive ?? archiveId;

  // Opening a document (row menu, double-click, Enter): unavailable with the user's disableOpenDoc.
  const openDisabled = localSettings?.searchSetting.disableOpenDoc ?? false;
  const newTab = localSettings?.searchSetting.openNewTab ?? false;
  const terms = data?.Terms;
  const openRow = useCallback(
    (d: DocLike) => {
      if (!openDocument || openDisabled) return;
      const ref = (x: DocLike) => ({ id: x.Id, hash: x.Hash, archiveId: docArchiveOf(x) });
      openDocument({ db, searchId, criteria, terms: terms ?? [], doc: ref(d), page: docs.map(ref), newTab });
    },
    [openDocument, openDisabled, db, searchId, criteria, terms, docs, newTab, docArchiveOf],
  );
  // Burst from the row's or the thumbnail's menu: one document, TIFF or PDF (the archive-ops spec §5);
  // not when this grid was opened from the indexer or the viewer (the user-app spec §2).
  const burstItem = (d: DocLike): ContextMenuItem[] => {
    if (!burst) return [];
    const why = params.get('fromIndexer') === 'true' ? t('BURST_DISABLED_FROM_INDEXER') : session?.licenceType === 4 ? t('DOCUMENTS_READ_ONLY_LICENCE') : undefined;
    const start = () => {
      const refused = sel.docs.size > 1 ? BURST_KEYS.multipleDocs : !isBurstable(d.FileType) ? BURST_KEYS.edoc : null;
      if (refused) notify('error', t(refused));
      else burst({ db, doc: { id: d.Id, hash: d.Hash, archiveId: docArchiveOf(d) } });
    };
    return [{ id: 'burst', label: t('RESULTS_MENU_BURST'), disabled: why !== undefined, reason: why, onSelect: start }];
  };
  const thumbSrc = useCallback(
    (d: DocLike) => documentThumbUrl({ baseUrl: config.apiBaseUrl, token: getToken(), db, archiveId: d.ArchiveId ?? d.Archive ?? archiveId, docId: d.Id, hash: d.Hash, width: 120, height: 120, version: d.ThumbVersion }),
    [config.apiBaseUrl, db, archiveId],
  );

  const previewSrc = (d: DocLike, scale: number) =>
    documentThumbUrl({ baseUrl: config.apiBaseUrl, token: getToken(), db, archiveId: docArchive(d), docId: d.Id, hash: d.Hash, width: THUMBNAIL.previewWidth * scale, height: THUMBNAIL.previewHeight * scale, version: d.ThumbVersion });

  const setParam = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };

  const archiveName = archives.find((a) => a.Id === archiveId)?.Name ?? '';
  const refine = `/view?${new URLSearchParams({ db: String(db), search: String(searchId), criteria, rpp: String(pageSize) }).toString()}`;
  const readOnly = session?.licenceType === 4;
  const editing = useEditing({
    scope, dbId: db, archiveId, docs, fields: data?.Fields ?? NO_FIELDS, columns: visible, rows, licenceType: session?.licenceType,
    fetchedAt: shown?.fetchedAt ?? 0, reload: rp.reload, activeDocId: activeDoc?.Id ?? null,
  });
  // Copy, move and delete (the route's slot). A job that ended changed this archive's pages and the
  // search's counts: cached pages of the archives it touched go (offline they would show documents
  // that are gone), the page on screen is fetched again, and what left the archive leaves the selection.
  const queryClient = useQueryClient();
  const pageKeyNow = rp.key;
  const reloadPage = rp.reload;
  const onDocumentsChanged = useCallback(
    (change: { archiveIds: number[]; gone: { archiveId: number; id: number }[] }) => {
      setSelection((c) => removeDocs(c, change.gone));
      void clearArchivePages(appDb, change.archiveIds, pageKeyNow)
        .catch(() => 0)
        .then(() => reloadPage());
      void queryClient.invalidateQueries({ queryKey: ['search', scope, db, searchId, 'counts'] });
    },
    [pageKeyNow, reloadPage, queryClient, scope, db, searchId],
  );
  const actions = useDocumentActions({
    scope, dbId: db, archiveId, archivePermissions: data?.Permissions ?? null, licenceType: session?.licenceType ?? undefined, selection: selected, onDocumentsChanged,
  });

  const exportFields = useMemo(() => views.flatMap((v) => (v.kind === 'field' && v.fieldId !== undefined ? [{ id: v.fieldId, name: v.title, visible: !v.hidden }] : [])), [views]);
  const exporting = useExport({
    dbId: db, searchId, archiveId, criteria, archivePermissions: data?.Permissions ?? null, licenceType: session?.licenceType ?? undefined, selection: selected, count: shown ? count : null, fields: exportFields,
  });

  const bulk = useBulkUpdate({
    dbId: db, searchId, archiveId, criteria, archivePermissions: data?.Permissions ?? null, licenceType: session?.licenceType ?? undefined, selection: selected, count: shown ? count : null,
    archiveProps: archives.find((a) => a.Id === archiveId)?.Props ?? null, fields: data?.Fields ?? NO_FIELDS, onDocumentsChanged,
  });
  const importing = useImport({
    scope, dbId: db, archiveId, archiveProps: archives.find((a) => a.Id === archiveId)?.Props ?? null, archivePermissions: data?.Permissions ?? null,
    licenceType: session?.licenceType ?? undefined, onDocumentsChanged,
  });

  const pinning = usePinning({ dbId: db, archiveId, docs, fields: data?.Fields ?? NO_FIELDS, fresh: !!shown && !rp.offline });

  // Only the offline notice shows when the page was fetched: a DateTimeFormat is costly to make (it
  // was made at every render), so it is made once per language, when the notice first needs it.
  const formatFetchedAt = useMemo(() => {
    let format: Intl.DateTimeFormat | undefined;
    return (ms: number) => (format ??= new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })).format(new Date(ms));
  }, [i18n.language]);
  const fetchedAt = shown && rp.offline ? formatFetchedAt(shown.fetchedAt) : '';

  return (
    <section className="page results-screen" aria-labelledby="results-title" data-search-hash={searchHash} data-read-only={readOnly || undefined}>
      <header className="results-header">
        <div>
          <h1 id="results-title">{search?.Name ?? t('RESULTS_TITLE')}</h1>
          <p className="subtitle">
            {archiveName && <span data-testid="results-archive">{archiveName}</span>}{' '}
            {shown && <span data-testid="results-count">{t('RESULTS_COUNT', { count })}</span>}
          </p>
        </div>
        {/* The document actions sit in the header, not the toolbar: a toolbar that wrapped to one more row
            when edit mode added its controls pushed the grid down on a 1366 px screen. */}
        <div className="results-header-actions">
          {actions.toolbar}
          {exporting.toolbar}
          {bulk.toolbar}
          {importing.toolbar}
          {pinning.toolbar}
          <Link className="button" to={refine}>
            {t('RESULTS_REFINE')}
          </Link>
        </div>
      </header>

      {tabs.length > 0 && (
        <ViewTabs
          tabs={tabs}
          current={tab}
          onChange={(id) => {
            setSelection(emptySelection());
            setParam({ tabID: String(id) });
          }}
        />
      )}

      <div className="results-toolbar">
        {multi && (
          <ArchivePicker
            archives={mergeArchiveCounts(archives.map((a) => ({ Id: a.Id, Name: a.Name })), counts)}
            current={archiveId}
            sortByCount={localSettings?.searchSetting.multiArchiveCountSort ?? false}
            hideEmpty={localSettings?.searchSetting.multiArchiveHideEmpty ?? false}
            onChange={(id) => {
              setActiveDoc(null);
              setParam({ archive: String(id) });
            }}
          />
        )}
        <Pager page={page} total={pages} onPage={(p) => {
          performance.mark('page-change');
          setPage(Math.min(Math.max(1, p), pages));
        }} />
        <PageSizeControl value={pageSize} fallback={config.defaultRecordsPerPage} onChange={(size) => grid.update({ pageSize: size })} />
        <label className="results-select-all">
          <input type="checkbox" checked={allChecked} onChange={toggleAll} disabled={docs.length === 0} />
          {t('RESULTS_SELECT_ALL')}
        </label>
        {selected.length > 0 && (
          <span className="results-selection">
            <span role="status" data-testid="results-selected">{t('RESULTS_SELECTED', { count: selected.length })}</span>
            <button type="button" className="button" onClick={() => setSelection(emptySelection())}>
              {t('RESULTS_CLEAR_SELECTION')}
            </button>
          </span>
        )}
        <ColumnsMenu
          columns={views}
          onToggleHidden={(id) => saveColumns(views.map((v) => (v.id === id ? { ...v, hidden: !v.hidden } : v)))}
          onTogglePinned={(id) => saveColumns(applyColumnState(defs, columnsToState(views.map((v) => (v.id === id ? { ...v, pinned: !v.pinned } : v)))))}
          onMove={(id, delta) => saveColumns(moveColumn(views, id, delta))}
        />
        <button
          type="button"
          className="button"
          onClick={() => {
            void grid.reset().then(() => rp.reload());
          }}
        >
          {t('RESULTS_RESTORE_COLUMNS')}
        </button>
        <button type="button" className="button" aria-pressed={historyOpen} aria-controls="results-history" onClick={() => setHistoryOpen((o) => !o)}>
          {t('RESULTS_HISTORY')}
        </button>
        {editing.controls}
      </div>

      {shown && rp.offline && (
        <p className="results-offline" role="status">
          {t('RESULTS_OFFLINE_DATA_FROM', { time: fetchedAt })}
        </p>
      )}
      {gridError && (
        <p className="results-error" role="alert">
          {gridError}
        </p>
      )}

      {editing.alerts}

      <div className="results-body">
        <section className="results-grid" aria-label={t('RESULTS_GRID')} aria-busy={rp.fetching}>
          {/* Over the grid's corner, not in the toolbar: a word that came and went in the toolbar
              wrapped it to one more row on a tablet and moved the grid up and down on every fetch. */}
          {rp.fetching && shown && <span className="results-loading results-loading-over" aria-hidden="true">{t('MESSAGE_LOADING')}</span>}
          {shown && count === 0 ? (
            <NoMatches refine={refine} />
          ) : shown ? (
            <ResultsGrid
              docs={docs}
              rows={editing.rows}
              columns={visible}
              fixedColumns={pinned > 0 ? visible.filter((v) => !v.configurable).length + pinned : 0}
              sorts={sorts}
              checked={checkedIds}
              scrollKey={shown.key}
              licenseKey={config.gridLicenseKey}
              thumbSrc={thumbSrc}
              onToggleCheck={toggleCheck}
              onSortChange={onSortChange}
              onResize={onResize}
              onActivateRow={setActiveDoc}
              onOpenThumb={setThumbDoc}
              onContextMenu={onContextMenu}
              onOpenRow={openDocument && !openDisabled ? openRow : undefined}
              editing={editing.grid}
              formatCell={formatCell}
              rowBadge={pinning.rowBadge}
            />
          ) : rp.offline && rp.record === null ? (
            <p className="results-unavailable" role="status">
              {t('RESULTS_NOT_AVAILABLE_OFFLINE')}
            </p>
          ) : (
            !gridError && <p className="results-loading-page">{t('MESSAGE_LOADING')}</p>
          )}
        </section>
        {editing.panel}
        {historyOpen && HistorySidebar && (
          <HistorySidebar
            id="results-history"
            db={db}
            archiveId={archiveId}
            archivePermissions={data?.Permissions ?? null}
            doc={
              activeDoc
                ? {
                    id: activeDoc.Id,
                    hash: activeDoc.Hash,
                    archiveId: docArchive(activeDoc),
                    permissions: activeDoc.Permissions ?? 0,
                    archiveName: archives.find((a) => a.Id === docArchive(activeDoc))?.Name,
                    label: documentLabelOf(activeDoc, data?.Fields ?? []),
                  }
                : null
            }
            onClose={() => setHistoryOpen(false)}
          />
        )}
      </div>

      <ThumbPreview
        open={thumbDoc !== null}
        title={thumbDoc ? (thumbDoc.FileName ?? String(thumbDoc.Id)) : ''}
        src={thumbDoc ? previewSrc(thumbDoc, 1) : null}
        srcSet={thumbDoc ? `${previewSrc(thumbDoc, 2)} 2x` : undefined}
        onClose={() => setThumbDoc(null)}
        menu={thumbDoc ? { label: t('RESULTS_THUMB_MENU', { name: thumbDoc.FileName ?? String(thumbDoc.Id) }), items: burstItem(thumbDoc) } : undefined}
      />
      {actions.dialogs}
      {exporting.dialogs}
      {bulk.dialogs}
      {importing.dialogs}
      {/* The row's menu: the document actions the app has so far (the others come with their features). */}
      {menu && (
        <ContextMenu
          label={t('RESULTS_MENU', { name: menu.doc.FileName ?? String(menu.doc.Id) })}
          at={menu.at}
          onClose={() => setMenu(null)}
          items={[
            ...(openDocument
              ? [{ id: 'open', label: t('RESULTS_MENU_OPEN_DOCUMENT'), disabled: openDisabled, reason: openDisabled ? t('RESULTS_OPEN_DOCUMENT_DISABLED') : undefined, onSelect: () => openRow(menu.doc) }]
              : []),
            { id: 'preview', label: t('RESULTS_THUMB_OPEN'), onSelect: () => setThumbDoc(menu.doc) },
            {
              id: 'history',
              label: t('RESULTS_MENU_HISTORY'),
              onSelect: () => {
                setActiveDoc(menu.doc);
                setHistoryOpen(true);
              },
            },
            ...(editing.canToggle ? [{ id: 'edit', label: t('EDIT_ROW'), disabled: !editing.canEditRow(menu.doc), onSelect: () => editing.editRow(menu.doc) }] : []),
            ...actions.rowMenuItems(asSelected(menu.doc)),
            ...burstItem(menu.doc),
            ...pinning.rowMenuItems(menu.doc),
          ]}
        />
      )}
    </section>
  );
}
