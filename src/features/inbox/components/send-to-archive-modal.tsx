import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, ArchiveList, archiveFieldsKey, archivePaths, fetchArchiveFields, type Field } from '../../../api/archives';
import { apiRequest } from '../../../api/http';
import { isLiveField, isReadOnlyProp } from '../../../fields/editability';
import { validateValue } from '../../../fields/rules';
import { browserAppLocale } from '../../../i18n/locale';
import { Modal } from '../../../ui/modal';
import { SendFieldInput } from './send-field-input';
// Also used outside the inbox screen (the burst's archive choice): its styles come with it.
import '../inbox.css';

/** What the panel hands on: the archive and the values in wire form (checked by the field rules). */
export interface SendValues {
  archiveId: number;
  archiveName: string;
  fields: { ID: number; VAL: string; MVAL?: string[] }[];
}

/** Fields the user fills: not read-only (system fields are filled by the server), not live, not table columns. */
const fillable = (f: Field) => !isReadOnlyProp(f.Prop) && !isLiveField(f) && !((f.Parent ?? 0) > 0);

/**
 * Send to an archive (the archive-ops spec §7): the archives of the database the user may add to
 * (bit 2; never a versions archive), then that archive's fields, each value checked by the shared
 * field rules in the user's locale (required fields need one) before anything is queued; the
 * server checks them again.
 */
export interface SendToArchiveProps {
  open: boolean;
  db: number;
  scope: string | null;
  fileNames: readonly string[];
  /** Another use of the same choice (the burst's "archive choice for bursting"): its own title and button. */
  title?: string;
  submitLabel?: string;
  onClose: () => void;
  onSend: (v: SendValues) => void;
}

export function SendToArchiveModal(props: SendToArchiveProps) {
  const { t } = useTranslation();
  return (
    <Modal open={props.open} title={props.title ?? t('INBOX_SEND_TITLE', { count: props.fileNames.length, name: props.fileNames[0] ?? '' })} onClose={props.onClose} className="inbox-modal">
      <SendToArchiveForm {...props} />
    </Modal>
  );
}

/**
 * The same choice docked beside what it is about instead of over it (the burst's pages being indexed
 * stay in view): a labelled region in the page, closed by its Cancel and opened again by the page.
 */
export function SendToArchivePanel(props: SendToArchiveProps) {
  const { t } = useTranslation();
  const titleId = useId();
  if (!props.open) return null;
  return (
    <section className="inbox-send-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title ?? t('INBOX_SEND_TITLE', { count: props.fileNames.length, name: props.fileNames[0] ?? '' })}</h2>
      <SendToArchiveForm {...props} />
    </section>
  );
}

function SendToArchiveForm(props: SendToArchiveProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const archives = useQuery({
    queryKey: ['inbox-send-archives', props.scope, props.db],
    queryFn: ({ signal }) => apiRequest({ path: archivePaths.list(props.db), schema: ArchiveList, signal }),
    enabled: props.open && props.scope !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
  const targets = (archives.data ?? []).filter((a) => ((a.Permissions ?? 0) & ARCHIVE_PERMISSIONS.add) !== 0 && ((a.Props ?? 0) & ARCHIVE_PROPS.versionsArchive) === 0);
  const [chosen, setChosen] = useState<number | null>(null);
  const archiveId = chosen ?? targets[0]?.Id ?? targets[0]?.ID ?? null;
  const fields = useQuery({
    queryKey: archiveFieldsKey(props.scope, props.db, archiveId),
    queryFn: ({ signal }) => fetchArchiveFields(props.db, archiveId!, signal),
    enabled: props.open && props.scope !== null && archiveId !== null,
    staleTime: 5 * 60 * 1000,
    meta: { handlesOwnErrors: true },
  });
  const shown = useMemo(() => (fields.data ?? []).filter(fillable), [fields.data]);
  const [values, setValues] = useState<Record<number, string>>({});
  const [tried, setTried] = useState(false);
  const locale = browserAppLocale(i18n.language);
  const checks = shown.map((f) => ({ f, r: validateValue(f, values[f.ID] ?? '', locale) }));
  const bad = checks.filter((c) => c.r.code !== 0);
  const messageOf = (c: (typeof checks)[number]) => c.r.message ?? (c.r.key ? t(c.r.key) : t('INBOX_INVALID_VALUE'));

  return (
    <form
      className="inbox-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (archiveId === null || bad.length > 0 || !fields.data) return;
        const archive = targets.find((a) => (a.Id ?? a.ID) === archiveId);
        props.onSend({
          archiveId,
          archiveName: archive?.Name ?? String(archiveId),
          fields: checks
            .filter((c) => (c.r.normalized ?? '') !== '')
            .map((c) => (c.f.MultiValue ? { ID: c.f.ID, VAL: c.r.normalized!, MVAL: [c.r.normalized!] } : { ID: c.f.ID, VAL: c.r.normalized! })),
        });
      }}
    >
      <label htmlFor={`${id}-archive`}>{t('INBOX_DESTINATION_ARCHIVE')}</label>
      <select id={`${id}-archive`} value={archiveId ?? ''} onChange={(e) => setChosen(Number(e.target.value))} disabled={targets.length === 0}>
        {targets.map((a) => (
          <option key={a.Id ?? a.ID} value={a.Id ?? a.ID}>
            {a.Name}
          </option>
        ))}
      </select>
      {archives.data && targets.length === 0 && <p role="alert">{t('INBOX_NO_ARCHIVE_TO_ADD')}</p>}
      {archives.isError && !archives.data && <p role="alert">{t('INBOX_ARCHIVES_FAILED')}</p>}
      <div className="inbox-form-fields" role="group" aria-label={t('INBOX_INDEX_VALUES')}>
        {checks.map((c) => {
          const fid = `${id}-f${c.f.ID}`;
          const invalid = tried && c.r.code !== 0;
          return (
            <div key={c.f.ID} className="inbox-field">
              <label htmlFor={fid}>
                {c.f.Name}
                {((c.f.Prop ?? 0) & 2) !== 0 ? ` (${t('INBOX_REQUIRED')})` : ''}
              </label>
              <SendFieldInput
                id={fid}
                db={props.db}
                field={c.f}
                value={values[c.f.ID] ?? ''}
                values={values}
                invalid={invalid}
                describedBy={invalid ? `${fid}-error` : undefined}
                onChange={(text) => setValues((v) => ({ ...v, [c.f.ID]: text }))}
              />
              {invalid && (
                <p id={`${fid}-error`} className="inbox-field-error">
                  {messageOf(c)}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {tried && bad.length > 0 && (
        <p role="alert" className="inbox-field-error">
          {t('INBOX_FIX_VALUES', { count: bad.length })}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('RESULTS_CANCEL')}
        </button>
        <button type="submit" className="button button-primary" disabled={archiveId === null || !fields.data}>
          {props.submitLabel ?? t('INBOX_SEND')}
        </button>
      </div>
    </form>
  );
}
