import { useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { INBOX_PAGE_DEFAULTS, INBOX_RIGHTS } from '../../../api/inboxes';
import { db as appDb } from '../../../db/db';
import { saveResponse } from '../../../platform/save-file';
import { sessionScope } from '../../../session/session';
import { useSession } from '../../../session/use-session';
import { INBOX_KIND, enqueueInboxChange } from '../../../sync/kinds/inbox';
import { notify } from '../../../ui/notifications';
import { useOnline } from '../../../ui/offline-indicator';
import { INBOX_QUERY_ROOT, fetchInboxFiles, inboxThumbUrl, useInboxList, useInboxPage } from '../api/inbox-reads';
import { INBOX_COLUMNS, canChangeInbox, inboxPageSize, inboxRows, parseInboxSort, sortParam, type InboxRow, type InboxSort } from '../inbox-logic';
import { DeleteModal, MoveModal, RenameModal } from './inbox-modals';
import { SendToArchiveModal, type SendValues } from './send-to-archive-modal';
import { InboxUpload } from './inbox-upload';
import '../inbox.css';
import { ReasonedButton } from '../../../ui/reasoned-button';
import { worded } from '../../../i18n/words';

/** The results feature's grid pieces, handed in by the route (a feature does not import another). */
export interface InboxGridParts {
  // The grid's own props; typed loosely here so this feature does not depend on the results feature's types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Grid: ComponentType<any>;
  Pager: ComponentType<{ page: number; total: number; onPage: (page: number) => void }>;
  PageSize: ComponentType<{ value: number; fallback: number; onChange: (size: number) => void }>;
  ThumbPreview: ComponentType<{ open: boolean; title: string; src: string | null; srcSet?: string; onClose: () => void }>;
}

type Dialog = { kind: 'rename'; name: string } | { kind: 'move' } | { kind: 'send' } | { kind: 'delete' } | null;

/**
 * /results/Inbox?db=&inboxId=&page=&rpp=&sort= (the user-app spec §2): one inbox's files in the results
 * grid (fixed columns File Name, File Format, Date Created, Date Modified; thumbnails; server-side
 * sort; page sizes 25 ... 10000, default 25) with the inbox actions on the checked files: rename,
 * move to another inbox, send to an archive with index values, delete, download (one file, or a zip
 * of several), and upload (button and drop). Changes need edit (4) on the inbox and a licence other
 * than the read-only one; each is an outbox entry per file (src/sync/kinds/inbox.ts), and the page
 * and the sidebar's counts refresh when it is done. Inboxes keep no history (no history panel).
 */
export function InboxScreen(props: { parts: InboxGridParts; gridLicenseKey: string }) {
  const { Grid, Pager, PageSize, ThumbPreview } = props.parts;
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const session = useSession();
  const scope = sessionScope(session);
  const queryClient = useQueryClient();
  const db = Number(params.get('db')) || 0;
  const inboxId = Number(params.get('inboxId')) || 0;
  const page = Math.max(1, Number(params.get('page')) || INBOX_PAGE_DEFAULTS.pageNumber);
  const size = inboxPageSize(params.get('rpp'));
  const sorts = parseInboxSort(params.get('sort'));
  const list = useInboxList(scope);
  const inbox = list.data?.find((i) => i.Id === inboxId);
  const files = useInboxPage(scope, inboxId > 0 ? { inboxId, page, size, sort: sortParam(sorts) } : null);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [thumb, setThumb] = useState<InboxRow | null>(null);
  const online = useOnline();

  // A new inbox, page, size or sort starts with nothing checked.
  const pageKey = `${inboxId}|${page}|${size}|${sortParam(sorts)}`;
  const [checkedFor, setCheckedFor] = useState(pageKey);
  if (checkedFor !== pageKey) {
    setCheckedFor(pageKey);
    setChecked(new Set());
  }

  // Refresh the inbox pages and the sidebar's counts when one of this user's inbox changes is done.
  const doneInboxChanges = useLiveQuery(
    () =>
      appDb.outbox
        .where('state')
        .equals('done')
        .filter((e) => e.kind === INBOX_KIND)
        .count(),
    [],
  );
  const seenDone = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (doneInboxChanges === undefined) return;
    if (seenDone.current !== undefined && doneInboxChanges !== seenDone.current) void queryClient.invalidateQueries({ queryKey: [INBOX_QUERY_ROOT] });
    seenDone.current = doneInboxChanges;
  }, [doneInboxChanges, queryClient]);

  // And when an upload into this inbox has arrived (the upload worker writes its record's state).
  const uploadsDone = useLiveQuery(() => appDb.uploads.filter((u) => u.state === 'done' && 'InboxID' in u.target && u.target.InboxID === inboxId).count(), [inboxId]);
  const seenUploads = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (uploadsDone === undefined) return;
    if (seenUploads.current !== undefined && uploadsDone !== seenUploads.current) void queryClient.invalidateQueries({ queryKey: [INBOX_QUERY_ROOT] });
    seenUploads.current = uploadsDone;
  }, [uploadsDone, queryClient]);

  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }), [i18n.language]);
  const rows = useMemo(() => inboxRows(files.data?.Files ?? [], (iso) => (iso ? dateFormat.format(new Date(iso)) : '')), [files.data, dateFormat]);
  const columns = useMemo(
    () => [
      { id: 'check', kind: 'check', title: '✓', sortable: false, configurable: false, width: 44, hidden: false, pinned: false, order: 0 },
      { id: 'THUMB', kind: 'thumb', title: t('RESULTS_THUMB'), sortable: false, configurable: false, width: 56, hidden: false, pinned: false, order: 1 },
      ...INBOX_COLUMNS.map((c, i) => ({ id: c.id, kind: 'field', title: t(c.titleKey), fieldId: i + 1, fieldType: i >= 2 ? 3 : 1, sortable: true, configurable: false, width: i === 0 ? 260 : 160, hidden: false, pinned: false, order: i + 2 })),
    ],
    [t],
  );
  const gridRows = useMemo(() => rows.map((r) => [checked.has(r.FileName), r.Id - 1, ...r.Fields.map((f) => f.VAL)]), [rows, checked]);
  const checkedIds = useMemo(() => new Set(rows.filter((r) => checked.has(r.FileName)).map((r) => r.Id)), [rows, checked]);
  const selected = rows.filter((r) => checked.has(r.FileName)).map((r) => r.FileName);

  const count = files.data?.Count ?? 0;
  const pages = Math.max(1, Math.ceil(count / size));
  const rights = files.data?.Permissions ?? inbox?.Permissions ?? 0;
  const canChange = canChangeInbox(rights, session?.licenceType ?? undefined);
  const changeReason = session?.licenceType === 4 ? t('INBOX_READ_ONLY_LICENCE') : (rights & INBOX_RIGHTS.edit) === 0 ? t('INBOX_NO_EDIT_RIGHT') : '';
  const others = (list.data ?? []).filter((i) => i.Id !== inboxId && ((i.Permissions ?? 0) & INBOX_RIGHTS.edit) !== 0 && (i.DatabaseId === null || i.DatabaseId === undefined || i.DatabaseId === db));
  const inboxName = inbox?.Name ?? t('INBOX_TITLE');

  const set = (patch: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: false },
    );

  const needSelection = (n: { min?: number; max?: number } = {}) => {
    if (selected.length === 0) {
      notify('error', t('ERROR_NO_DOCUMENTS_SELECTED'));
      return false;
    }
    if (n.max !== undefined && selected.length > n.max) {
      notify('error', t('INBOX_ONE_FILE_ONLY'));
      return false;
    }
    return true;
  };
  const queued = (n: number) => notify('info', t('INBOX_CHANGES_QUEUED', { count: n }));

  const rename = (newName: string) => {
    if (dialog?.kind !== 'rename') return;
    const from = dialog.name;
    void enqueueInboxChange({ method: 'POST', inboxId, query: { FilePath: from, newFileName: newName } }, { action: 'rename', inboxIds: [inboxId], fileName: from, ...worded(t, 'INBOX_RENAME_ENTRY', { name: from, newName }) }).then(() => queued(1));
    setDialog(null);
    setChecked(new Set());
  };
  const move = (targetId: number, deleteOriginal: boolean) => {
    const target = others.find((i) => i.Id === targetId);
    const names = selected;
    void Promise.all(
      names.map((name) =>
        enqueueInboxChange(
          { method: 'GET', inboxId, query: { FilePath: name, targetInboxId: String(targetId), deleteOriginal: String(deleteOriginal) } },
          { action: deleteOriginal ? 'move' : 'copy', inboxIds: [inboxId, targetId], fileName: name, ...worded(t, deleteOriginal ? 'INBOX_MOVE_ENTRY' : 'INBOX_COPY_ENTRY', { name, inbox: target?.Name ?? String(targetId) }) },
        ),
      ),
    ).then(() => queued(names.length));
    setDialog(null);
    setChecked(new Set());
  };
  const send = (v: SendValues) => {
    const names = selected;
    void Promise.all(
      names.map((name) =>
        enqueueInboxChange(
          { method: 'POST', inboxId, query: { fileName: name, destinationDatabaseId: String(db), destinationArchiveId: String(v.archiveId) }, body: { Fields: v.fields } },
          { action: 'send', inboxIds: [inboxId], fileName: name, ...worded(t, 'INBOX_SEND_ENTRY', { name, archive: v.archiveName }) },
        ),
      ),
    ).then(() => queued(names.length));
    setDialog(null);
    setChecked(new Set());
  };
  const remove = () => {
    const names = selected;
    void Promise.all(
      names.map((name) => enqueueInboxChange({ method: 'DELETE', inboxId, query: { FilePath: name } }, { action: 'delete', inboxIds: [inboxId], fileName: name, ...worded(t, 'INBOX_DELETE_ENTRY', { name }) })),
    ).then(() => queued(names.length));
    setDialog(null);
    setChecked(new Set());
  };
  const download = async () => {
    if (!needSelection()) return;
    if (!online) {
      notify('error', t('INBOX_DOWNLOAD_OFFLINE'));
      return;
    }
    try {
      const res = await fetchInboxFiles(inboxId, selected);
      const one = selected.length === 1;
      const name = one ? selected[0]! : `${inboxName}.zip`;
      const outcome = await saveResponse(res, name, res.headers.get('Content-Type') ?? (one ? 'application/octet-stream' : 'application/zip'));
      if (outcome === 'saved') notify('info', t('INBOX_SAVED', { name }));
    } catch {
      notify('error', t('INBOX_DOWNLOAD_FAILED'));
    }
  };

  const action = (label: string, onClick: () => void, opts: { change?: boolean; testId?: string } = {}) => {
    const disabled = opts.change && !canChange;
    return (
      <ReasonedButton reason={disabled ? changeReason : null} onClick={onClick}>
        {label}
      </ReasonedButton>
    );
  };

  const fetchedAt = files.dataUpdatedAt ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(files.dataUpdatedAt)) : '';

  return (
    <section className="page results-screen inbox-screen" aria-labelledby="inbox-title" data-read-only={!canChange || undefined}>
      <header className="results-header">
        <div>
          <h1 id="inbox-title">{inboxName}</h1>
          <p className="subtitle">{files.data && <span data-testid="inbox-count">{t('INBOX_FILE_COUNT', { count })}</span>}</p>
        </div>
        <div className="results-header-actions inbox-actions" role="toolbar" aria-label={t('INBOX_ACTIONS')}>
          {action(t('INBOX_RENAME'), () => needSelection({ max: 1 }) && setDialog({ kind: 'rename', name: selected[0]! }), { change: true })}
          {action(t('INBOX_MOVE'), () => needSelection() && setDialog({ kind: 'move' }), { change: true })}
          {action(t('INBOX_SEND'), () => needSelection() && setDialog({ kind: 'send' }), { change: true })}
          {action(t('INBOX_DELETE'), () => needSelection() && setDialog({ kind: 'delete' }), { change: true })}
          {action(t('INBOX_DOWNLOAD'), () => void download())}
          <InboxUpload inboxId={inboxId} dbId={db} inboxName={inboxName} canUpload={canChange} reason={changeReason} />
        </div>
      </header>

      <div className="results-toolbar">
        <Pager page={page} total={pages} onPage={(p) => set({ page: String(Math.min(Math.max(1, p), pages)) })} />
        <PageSize value={size} fallback={INBOX_PAGE_DEFAULTS.numberOfDocuments} onChange={(n) => set({ rpp: String(n), page: null })} />
        {selected.length > 0 && (
          <span className="results-selection">
            <span role="status" data-testid="inbox-selected">
              {t('RESULTS_SELECTED', { count: selected.length })}
            </span>
            <button type="button" className="button" onClick={() => setChecked(new Set())}>
              {t('RESULTS_CLEAR_SELECTION')}
            </button>
          </span>
        )}
      </div>
      {!online && files.data && (
        <p className="results-offline" role="status">
          {t('RESULTS_OFFLINE_DATA_FROM', { time: fetchedAt })}
        </p>
      )}
      {files.isError && !files.data && (
        <p className="results-error" role="alert">
          {online ? t('INBOX_FILES_FAILED') : t('RESULTS_NOT_AVAILABLE_OFFLINE')}
        </p>
      )}

      <div className="results-body">
        <section className="results-grid" aria-label={t('INBOX_GRID', { name: inboxName })} aria-busy={files.isFetching}>
          {/* Over the grid's corner, as on the results screen: in the toolbar it wrapped it on a tablet. */}
          {files.isFetching && files.data && <span className="results-loading results-loading-over" aria-hidden="true">{t('MESSAGE_LOADING')}</span>}
          {files.data && count === 0 ? (
            <p role="status">{t('INBOX_EMPTY')}</p>
          ) : files.data ? (
            <Grid
              docs={rows}
              rows={gridRows}
              columns={columns}
              fixedColumns={0}
              sorts={sorts}
              checked={checkedIds}
              scrollKey={pageKey}
              licenseKey={props.gridLicenseKey}
              thumbSrc={(d: InboxRow) => inboxThumbUrl(inboxId, d.FileName, { width: 120, height: 120 })}
              onToggleCheck={(d: InboxRow) =>
                setChecked((c) => {
                  const next = new Set(c);
                  if (next.has(d.FileName)) next.delete(d.FileName);
                  else next.add(d.FileName);
                  return next;
                })
              }
              onSortChange={(s: { column: string; direction: 'asc' | 'desc' }[]) => set({ sort: sortParam(s as InboxSort[]) || null, page: null })}
              onResize={() => undefined}
              onActivateRow={() => undefined}
              onOpenThumb={(d: InboxRow) => setThumb(d)}
            />
          ) : (
            !files.isError && <p className="results-loading-page">{t('MESSAGE_LOADING')}</p>
          )}
        </section>
      </div>

      <ThumbPreview
        open={thumb !== null}
        title={thumb?.FileName ?? ''}
        src={thumb ? inboxThumbUrl(inboxId, thumb.FileName, { width: 600, height: 800 }) : null}
        srcSet={thumb ? `${inboxThumbUrl(inboxId, thumb.FileName, { width: 1200, height: 1600 })} 2x` : undefined}
        onClose={() => setThumb(null)}
      />
      {dialog?.kind === 'rename' && <RenameModal fileName={dialog.name} taken={rows.map((r) => r.FileName)} onClose={() => setDialog(null)} onRename={rename} />}
      <MoveModal open={dialog?.kind === 'move'} count={selected.length} inboxes={others} onClose={() => setDialog(null)} onMove={move} />
      {dialog?.kind === 'send' && <SendToArchiveModal open db={db} scope={scope} fileNames={selected} onClose={() => setDialog(null)} onSend={send} />}
      <DeleteModal names={dialog?.kind === 'delete' ? selected : []} onClose={() => setDialog(null)} onDelete={remove} />
    </section>
  );
}
