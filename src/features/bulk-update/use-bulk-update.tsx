/**
 * Bulk update in the results screen (issue 11 item 4; the user-app spec §2, §4, §5): the toolbar's Bulk
 * update button, its dialog (Basic and Advanced tabs), the count (a dry run on the server) and the
 * update-count confirmation; Confirm makes ONE outbox entry (src/sync/kinds/bulk-update.ts) whose
 * server job shows in the tray; when a bulk update job of this database ends, the grid refreshes.
 * The results screen takes this hook as a slot (the route composes the features). State: which
 * dialog is open and the count on screen, in memory only.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../api/archives';
import { isApiError } from '../../api/api-error';
import { BULK_UPDATE_JOB_KIND, type BasicBulkUpdate, type BulkCountCall, type BulkUpdateCall, type BulkUpdateCount, type CsvBulkUpdate } from '../../api/bulk-update';
import { browserAppLocale } from '../../i18n/locale';
import { askNotificationPermissionForJob } from '../../sync/jobs-permission';
import { enqueueBulkUpdate } from '../../sync/kinds/bulk-update';
import { useJobsEnded } from '../../sync/react/use-jobs-ended';
import { downloadBlob } from '../../platform/save-file';
import { notify } from '../../ui/notifications';
import { countBulkUpdate } from './api/bulk-count';
import { basicCall, buildBasicRequest, bulkUpdateBlocked, bulkUpdateShown, updatableFields, type BasicForm } from './bulk-update-rules';
import { lazyNamed } from '../../ui/lazy-named';

import './bulk-update.css';
import { ReasonedButton } from '../../ui/reasoned-button';

// The dialogs load when first opened, not with the results screen.
const BulkUpdateDialog = lazyNamed(() => import('./components/bulk-update-dialog'), 'BulkUpdateDialog');
const CsvTab = lazyNamed(() => import('./components/csv-tab'), 'CsvTab');
const UpdateCountModal = lazyNamed(() => import('./components/update-count-modal'), 'UpdateCountModal');

export interface BulkUpdateInput {
  dbId: number;
  searchId: number;
  archiveId: number;
  criteria: string;
  /** The archive's Props (revision control 1); null while unknown. */
  archiveProps: number | null;
  archivePermissions: number | null;
  licenceType: number | undefined;
  selection: readonly { id: number; archiveId: number }[];
  count: number | null;
  /** The result set's fields (wire Field objects). */
  fields: readonly unknown[];
  onDocumentsChanged: (change: { archiveIds: number[]; gone: { archiveId: number; id: number }[] }) => void;
}

/** A count on screen, with the update it confirms. */
export interface Counted {
  count: BulkUpdateCount;
  call: BulkUpdateCall;
  body: BasicBulkUpdate | CsvBulkUpdate;
}

export function useBulkUpdate(input: BulkUpdateInput): { toolbar: ReactNode; dialogs: ReactNode } {
  const { t, i18n } = useTranslation();
  const { dbId, searchId, archiveId, criteria, archiveProps, archivePermissions, licenceType, selection, count, onDocumentsChanged } = input;
  const [open, setOpen] = useState<number | null>(null);
  const [counting, setCounting] = useState(false);
  const [counted, setCounted] = useState<Counted | null>(null);
  // A CSV update's refused rows, kept for the confirmation (the dialog is closed by then).
  const [errorFile, setErrorFile] = useState<{ file: Blob; refused: number } | null>(null);
  const fields = updatableFields(input.fields as Field[]);
  const locale = browserAppLocale(i18n.language);

  useJobsEnded(dbId, BULK_UPDATE_JOB_KIND, (a) => onDocumentsChanged({ archiveIds: [a ?? archiveId], gone: [] }));

  if (!bulkUpdateShown(licenceType)) return { toolbar: null, dialogs: null };
  const blocked = bulkUpdateBlocked(archiveProps, archivePermissions);

  const openDialog = () => {
    if (blocked) {
      notify('error', t(blocked));
      return;
    }
    setCounted(null);
    setErrorFile(null);
    setOpen((n) => (n ?? 0) + 1);
  };

  /** Asks the server for the count; the confirmation shows it. */
  const runCount = async (call: BulkCountCall, body: BasicBulkUpdate | CsvBulkUpdate, update: BulkUpdateCall) => {
    setCounting(true);
    try {
      const c = await countBulkUpdate(dbId, call, body);
      setCounted({ count: c, call: update, body });
    } catch (e) {
      if (isApiError(e) && e.kind !== 'http') notify('error', t('BULK_UPDATE_OFFLINE'));
      else if (isApiError(e) && e.key && i18n.exists(e.key)) notify('error', t(e.key as 'ERROR_UNKNOWN'));
      else notify('error', t('BULK_UPDATE_COUNT_FAILED', { reason: String((e as Error)?.message ?? e) }));
    } finally {
      setCounting(false);
    }
  };

  const countBasic = (form: BasicForm) => {
    const body = buildBasicRequest(form, fields, { dbId, archiveId, searchId, criteria, checked: selection }, locale);
    void runCount('BasicSearchCount', body, basicCall(body));
  };

  const confirm = () => {
    if (!counted) return;
    const n = counted.count.Count;
    const title = t('BULK_UPDATE_JOB_TITLE', { count: n });
    setCounted(null);
    setOpen(null);
    void askNotificationPermissionForJob(n);
    void enqueueBulkUpdate({ call: counted.call, body: counted.body, archiveId, count: n, title })
      .then(() => notify('info', t('DOCUMENTS_QUEUED', { title })))
      .catch((e: unknown) => notify('error', String((e as Error)?.message ?? e)));
  };

  const toolbar = (
    <ReasonedButton reason={blocked ? t(blocked) : null} onClick={openDialog}>
      {t('BULK_UPDATE_BUTTON')}
    </ReasonedButton>
  );
  const fieldName = (id: number) => (input.fields as Field[]).find((f) => f.ID === id)?.Name ?? String(id);
  const dialogs = (
    <Suspense fallback={null}>
      {open !== null && !counted && (
        <BulkUpdateDialog
          key={open}
          fields={fields}
          searchId={searchId}
          checked={selection.length}
          results={count}
          locale={locale}
          counting={counting}
          onCountBasic={countBasic}
          onClose={() => setOpen(null)}
          advanced={
            <CsvTab
              dbId={dbId}
              searchId={searchId}
              archiveId={archiveId}
              fields={fields}
              locale={locale}
              counting={counting}
              onErrorFile={(file, refused) => setErrorFile(file ? { file, refused } : null)}
              onCount={(call, body, update) => void runCount(call, body, update)}
            />
          }
        />
      )}
      {counted && (
        <UpdateCountModal
          count={counted.count}
          fieldName={fieldName}
          onConfirm={confirm}
          onBack={() => setCounted(null)}
          extra={
            errorFile && (
              <p className="bulk-error-file">
                {t('BULK_UPDATE_CSV_REFUSED_ROWS', { count: errorFile.refused })}{' '}
                <button type="button" className="button" onClick={() => downloadBlob(errorFile.file, 'bulk-update-errors.csv')}>
                  {t('BULK_UPDATE_CSV_ERROR_FILE')}
                </button>
              </p>
            )
          }
        />
      )}
    </Suspense>
  );
  return { toolbar, dialogs };
}
