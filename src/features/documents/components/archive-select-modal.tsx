import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import type { Destination } from '../document-rules';

/**
 * The spec's archive select modal (the archive-ops spec "Modals"): where copied or moved documents go.
 * A radio list (one tap or the arrow keys choose), then the action's own button confirms.
 */
export function ArchiveSelectModal(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  destinations: readonly Destination[];
  loading: boolean;
  /** Offline and the archive list was never fetched on this device. */
  offline?: boolean;
  onConfirm: (d: Destination) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<number | null>(null);
  const name = useId();
  const current = props.destinations.find((d) => d.id === chosen) ?? null;
  return (
    <Modal open={props.open} title={props.title} onClose={props.onClose} className="documents-modal">
      {props.destinations.length === 0 ? (
        <p role="status">{props.offline ? t('DOCUMENTS_ARCHIVES_OFFLINE') : props.loading ? t('MESSAGE_LOADING') : t('DOCUMENTS_NO_DESTINATION')}</p>
      ) : (
        <fieldset className="documents-archives">
          <legend>{t('DOCUMENTS_DESTINATION')}</legend>
          {props.destinations.map((d) => (
            <label key={d.id} className="documents-archive">
              <input type="radio" name={name} value={d.id} checked={chosen === d.id} onChange={() => setChosen(d.id)} />
              {d.name}
            </label>
          ))}
        </fieldset>
      )}
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onClose}>
          {t('DOCUMENTS_CANCEL')}
        </button>
        <button type="button" className="button button-primary" disabled={current === null} onClick={() => current && props.onConfirm(current)}>
          {props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
