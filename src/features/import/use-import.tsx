/**
 * Import of documents with index data in the results screen (issue 11 item 3; the user-app spec §2, §3,
 * §6; the archive-ops spec §2, §5): the header's Import button (none for licence type 4; refused with
 * its reason without the add right or in a versions archive), its dialog, and the confirmation:
 * each file the rows name is queued once as a resumable upload to the archive's import staging
 * (src/sync/uploads.ts), then ONE outbox entry (src/sync/kinds/import.ts) that waits for them and
 * starts the server's import job, which the tray follows. When an import job of this database ends,
 * the grid refreshes. The results screen takes this hook as a slot (the route composes the features).
 * State: whether the dialog is open, in memory only.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_JOB_KIND } from '../../api/import';
import { browserAppLocale } from '../../i18n/locale';
import { askNotificationPermissionForJob } from '../../sync/jobs-permission';
import { enqueueImport } from '../../sync/kinds/import';
import { useJobsEnded } from '../../sync/react/use-jobs-ended';
import { enqueueUploads } from '../../sync/uploads';
import { notify } from '../../ui/notifications';
import { useImportFields } from './api/get-archive-fields';
import type { ImportDialogProps } from './components/import-dialog';
import { lazyNamed } from '../../ui/lazy-named';

import { fieldMappingOf, importBlocked, importShown } from './import-rules';
import './import.css';
import { ReasonedButton } from '../../ui/reasoned-button';

/** Loaded when first opened, not with the results screen. */
const ImportDialog = lazyNamed(() => import('./components/import-dialog'), 'ImportDialog');

export interface ImportInput {
  scope: string | null;
  dbId: number;
  archiveId: number;
  /** The archive's Props (versions archive 16); null while unknown. */
  archiveProps: number | null;
  archivePermissions: number | null;
  licenceType: number | undefined;
  onDocumentsChanged: (change: { archiveIds: number[]; gone: { archiveId: number; id: number }[] }) => void;
}

type Confirmed = Parameters<ImportDialogProps['onConfirm']>[0];

export function useImport(input: ImportInput): { toolbar: ReactNode; dialogs: ReactNode } {
  const { t, i18n } = useTranslation();
  const { scope, dbId, archiveId, archiveProps, archivePermissions, licenceType, onDocumentsChanged } = input;
  const [open, setOpen] = useState<number | null>(null);
  const fields = useImportFields(scope, dbId, archiveId, open !== null);
  const locale = browserAppLocale(i18n.language);

  useJobsEnded(dbId, IMPORT_JOB_KIND, (a) => onDocumentsChanged({ archiveIds: [a ?? archiveId], gone: [] }));

  if (!importShown(licenceType)) return { toolbar: null, dialogs: null };
  const blocked = importBlocked(archiveProps, archivePermissions);

  const openDialog = () => {
    if (blocked) {
      notify('error', t(blocked));
      return;
    }
    setOpen((n) => (n ?? 0) + 1);
  };

  const confirm = async ({ plan, form, fields: importable, csvName, errorPath }: Confirmed) => {
    const count = plan.rows.length;
    const title = t('IMPORT_JOB_TITLE', { count, name: csvName });
    setOpen(null);
    void askNotificationPermissionForJob(count);
    // Each file once; the plan refused the rows of a zero-byte file, so every file here is queued.
    const { ids } = await enqueueUploads(plan.files, { DatabaseID: dbId, ArchiveID: archiveId }, { dbId });
    const uploads = plan.files.map((f) => (f.size === 0 ? null : (ids.shift() ?? null)));
    const allowed = new Set(importable.map((f) => f.ID));
    await enqueueImport({
      request: {
        Database: dbId,
        Archive: archiveId,
        csvPath: csvName,
        errorPath,
        fieldDelimiter: form.fieldDelimiter,
        stringDelimiter: form.stringDelimiter,
        OverwriteSystem: form.overwriteSystem,
        FieldMapping: fieldMappingOf(form).filter((m) => allowed.has(m.FieldID)),
        Files: plan.fileNames.map((Name) => ({ Name })),
      },
      rows: plan.rows,
      uploads,
      title,
    });
    notify('info', t('DOCUMENTS_QUEUED', { title }));
  };

  const toolbar = (
    <ReasonedButton reason={blocked ? t(blocked) : null} onClick={openDialog}>
      {t('IMPORT_BUTTON')}
    </ReasonedButton>
  );
  const dialogs = open !== null && (
    <Suspense fallback={null}>
      <ImportDialog
        key={open}
        fields={fields.data}
        fieldsFailed={fields.isError}
        locale={locale}
        onClose={() => setOpen(null)}
        onConfirm={(c) => void confirm(c).catch((e: unknown) => notify('error', t('IMPORT_QUEUE_FAILED', { reason: String((e as Error)?.message ?? e) })))}
      />
    </Suspense>
  );
  return { toolbar, dialogs };
}
