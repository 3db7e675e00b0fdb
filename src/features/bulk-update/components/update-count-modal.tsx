import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkRefusal, BulkUpdateCount } from '../../../api/bulk-update';
import { failureText } from '../../../i18n/words';
import { failureParts } from '../../../sync/jobs';
import { Modal } from '../../../ui/modal';

export interface UpdateCountModalProps {
  count: BulkUpdateCount;
  /** Field id -> its name, for the list of changes. */
  fieldName: (id: number) => string;
  onConfirm: () => void;
  onBack: () => void;
  /** More to say above the buttons (a CSV update's error file). */
  extra?: ReactNode;
}

/**
 * The update-count confirmation (the user-app spec §2, §4): how many documents the update changes, how many
 * already hold the values and how many it cannot update (with the first reasons), and the first
 * changes as the server's dry run lists them. Nothing to change: only Back.
 */
export function UpdateCountModal({ count, fieldName, onConfirm, onBack, extra }: UpdateCountModalProps) {
  const { t, i18n } = useTranslation();
  // Each refusal in the user's words (its reason's key and parts), as the tray says a job's failures;
  // a row that names no document by its CSV line.
  const refusal = (r: BulkRefusal) => failureText(failureParts(r.DocID === 0 ? r : { ...r, Line: undefined }), t, (k) => i18n.exists(k));
  const empty = (v: string) => (v === '' ? t('BULK_UPDATE_EMPTY') : v);
  return (
    <Modal open title={t('BULK_UPDATE_CONFIRM_TITLE')} onClose={onBack} className="bulk-update-modal">
      <p role="status" data-testid="bulk-update-count">
        {t('BULK_UPDATE_COUNT_RESULT', { count: count.Count })}
      </p>
      {count.Unchanged > 0 && <p>{t('BULK_UPDATE_UNCHANGED', { count: count.Unchanged })}</p>}
      {count.RefusedCount > 0 && (
        <div>
          <p>{t('BULK_UPDATE_REFUSED', { count: count.RefusedCount })}</p>
          <ul className="bulk-refused">
            {count.Refused.map((r) => (
              <li key={`${r.DocID}-${r.Line ?? ''}`}>{refusal(r)}</li>
            ))}
          </ul>
        </div>
      )}
      {count.Changes.length > 0 && (
        <table className="bulk-changes">
          <caption>{t('BULK_UPDATE_FIRST_CHANGES')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('BULK_UPDATE_COL_DOC')}</th>
              <th scope="col">{t('BULK_UPDATE_COL_FIELD')}</th>
              <th scope="col">{t('BULK_UPDATE_COL_OLD')}</th>
              <th scope="col">{t('BULK_UPDATE_COL_NEW')}</th>
            </tr>
          </thead>
          <tbody>
            {count.Changes.map((c) => (
              <tr key={`${c.DocID}-${c.FieldID}`}>
                <td>{c.Name || `#${c.DocID}`}</td>
                <td>{fieldName(c.FieldID)}</td>
                <td>{empty(c.Old)}</td>
                <td>{empty(c.New)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {extra}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onBack}>
          {t('BULK_UPDATE_BACK')}
        </button>
        {count.Count > 0 && (
          <button type="button" className="button primary" onClick={onConfirm}>
            {t('BULK_UPDATE_RUN', { count: count.Count })}
          </button>
        )}
      </div>
    </Modal>
  );
}
