/**
 * Export in the results screen (issue 10 item 1; the user-app spec §2 export dialogs, §5, §6): the toolbar's
 * Export and Export to Excel buttons and their dialog. Start makes ONE outbox entry
 * (src/sync/kinds/export-request.ts), sent now or when the connection returns; its job is then in the
 * tray, which offers the file once the server has made it. The results screen takes this hook as a
 * slot (the route composes the features). State: which dialog is open, in memory; the defaults come
 * from the local settings (Dexie settings 'localSettings', the settings' Export tab).
 */
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { liveQuery, type Subscription } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ExportFormat } from '../../api/export';
import { db } from '../../db/db';
import { LocalSettings, readLocalSettings } from '../../db/local-settings';
import { askNotificationPermissionForJob } from '../../sync/jobs-permission';
import { enqueueExportRequest, isExportRequestMeta } from '../../sync/kinds/export-request';
import { notify } from '../../ui/notifications';
import { lazyNamed } from '../../ui/lazy-named';

import type { ExportField } from './components/export-field-select';
import { ExportToolbar } from './components/export-toolbar';
import { buildExportSettings, exportBlocked, initialScope, type ExportForm, type ExportScope } from './export-request';
import './export.css';
import { isOnline } from '../../api/connectivity';

/** Loaded when first opened, not with the results screen. */
const ExportDialog = lazyNamed(() => import('./components/export-dialog'), 'ExportDialog');

export interface ExportActionsInput {
  dbId: number;
  searchId: number;
  /** The archive the grid shows. */
  archiveId: number;
  /** The search's criteria as the grid runs them. */
  criteria: string;
  /** The user's bits on the archive (the result set's Permissions); null while unknown. */
  archivePermissions: number | null;
  licenceType: number | undefined;
  /** The checked documents, from every page. */
  selection: readonly { id: number; archiveId: number }[];
  /** The search's results in this archive; null while not known. */
  count: number | null;
  /** The archive's fields in the grid's column order; `visible`: its column is shown. */
  fields: readonly (ExportField & { visible: boolean })[];
}

export interface ExportActions {
  toolbar: ReactNode;
  dialogs: ReactNode;
}

const FALLBACK_DEFAULTS = LocalSettings.parse({}).exportDefaults;

export function useExportActions(input: ExportActionsInput): ExportActions {
  const { t } = useTranslation();
  const { dbId, searchId, archiveId, criteria, archivePermissions, licenceType, selection, count, fields } = input;
  const [open, setOpen] = useState<{ format: ExportFormat; scope: ExportScope; n: number } | null>(null);
  const defaults = useLiveQuery(() => readLocalSettings(), [])?.exportDefaults ?? FALLBACK_DEFAULTS;

  // Entries started here are watched until the server has answered them, so a refusal (nothing to
  // export, documents waiting for PDF conversion ...) is said at once in the user's words.
  const watching = useRef(new Set<Subscription>());
  useEffect(() => {
    const subs = watching.current;
    return () => {
      for (const s of subs) s.unsubscribe();
      subs.clear();
    };
  }, []);

  const blocked = (format: ExportFormat) => exportBlocked(format, licenceType, archivePermissions);

  const openDialog = (format: ExportFormat) => {
    const reason = blocked(format);
    if (reason) {
      notify('error', t(reason));
      return;
    }
    const what = initialScope(selection.length, count);
    // The spec's invalid-data alert: there is nothing to export.
    if ('error' in what) {
      notify('error', t(what.error));
      return;
    }
    setOpen((o) => ({ format, scope: what.scope, n: (o?.n ?? 0) + 1 }));
  };

  const watch = (entryId: string, title: string) => {
    const sub = liveQuery(() => db.outbox.where('id').equals(entryId).first()).subscribe({
      next: (e) => {
        if (!e || e.state === 'done') {
          sub.unsubscribe();
          watching.current.delete(sub);
          return;
        }
        if (e.state !== 'failed') return;
        const key = isExportRequestMeta(e.meta) ? e.meta.refusedKey : undefined;
        const reason = key && t(key as 'ERROR_UNKNOWN', { defaultValue: '' }) ? t(key as 'ERROR_UNKNOWN') : (e.error ?? t('ERROR_UNKNOWN'));
        notify('error', t('EXPORT_REFUSED', { title, reason }));
        sub.unsubscribe();
        watching.current.delete(sub);
      },
    });
    watching.current.add(sub);
  };

  const start = (form: ExportForm) => {
    setOpen(null);
    const n = form.scope === 'checked' ? selection.length : (count ?? 0);
    const title = t(form.format === 'xlsx' ? 'EXPORT_JOB_TITLE_EXCEL' : 'EXPORT_JOB_TITLE', { count: n });
    const settings = buildExportSettings({ dbId, searchId, archiveId, criteria, checked: selection }, form);
    // Asked in the click that starts it: an export of many documents is when its end is worth telling.
    void askNotificationPermissionForJob(n);
    void enqueueExportRequest({ settings, count: n, title })
      .then((id) => {
        watch(id, title);
        notify('info', t(!isOnline() ? 'EXPORT_QUEUED_OFFLINE' : 'DOCUMENTS_QUEUED', { title }));
      })
      .catch((e: unknown) => notify('error', String((e as Error)?.message ?? e)));
  };

  const toolbar = <ExportToolbar blocked={blocked} onExport={openDialog} />;
  const dialogs = open && (
    <Suspense fallback={null}>
      <ExportDialog
        key={open.n}
        format={open.format}
        checked={selection.length}
        results={count}
        initialScope={open.scope}
        fields={fields}
        defaults={defaults}
        onStart={start}
        onClose={() => setOpen(null)}
      />
    </Suspense>
  );
  return { toolbar, dialogs };
}
