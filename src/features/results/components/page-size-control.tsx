import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { PAGE_SIZE_CHOICES, checkPageSize } from '../grid-logic';

/**
 * Page size: the choices 25 … 10000 and a typed value. Above 10000 is a large page, asked for in a
 * confirmation dialog first (the user-app spec §5). An invalid typed value falls back to the default.
 */
export function PageSizeControl(props: { value: number; fallback: number; onChange: (size: number) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const otherId = useId();
  const placeholder = t('RESULTS_PAGE_SIZE_OTHER');
  const choices = PAGE_SIZE_CHOICES.includes(props.value) ? PAGE_SIZE_CHOICES : [...PAGE_SIZE_CHOICES, props.value].sort((a, b) => a - b);

  const choose = (raw: unknown) => {
    const c = checkPageSize(raw, props.fallback);
    if (c.ok && c.large) setConfirming(c.size);
    else props.onChange(c.size);
  };

  return (
    <div className="results-page-size">
      <select aria-label={t('RESULTS_PAGE_SIZE')} value={props.value} onChange={(e) => choose(e.target.value)}>
        {choices.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <form
        className="results-page-size-other"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim() === '') return;
          choose(typed);
          setTyped('');
        }}
      >
        <label htmlFor={otherId} className="results-vh">
          {t('RESULTS_PAGE_SIZE_OTHER')}
        </label>
        <input
          id={otherId}
          type="number"
          min={1}
          inputMode="numeric"
          placeholder={placeholder}
          // As wide as its placeholder in the user's language ("Andere Seitengröße" is longer than
          // "Other page size"), plus room for the number spinner: a fixed width cut it off.
          style={{ width: `calc(${placeholder.length}ch + 2.5em)` }}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="button">
          {t('RESULTS_APPLY')}
        </button>
      </form>
      <Modal open={confirming !== null} title={t('RESULTS_LARGE_PAGE_TITLE')} onClose={() => setConfirming(null)}>
        <p>{t('RESULTS_LARGE_PAGE_MESSAGE', { size: confirming ?? 0 })}</p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={() => setConfirming(null)}>
            {t('RESULTS_CANCEL')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              if (confirming !== null) props.onChange(confirming);
              setConfirming(null);
            }}
          >
            {t('RESULTS_LARGE_PAGE_CONFIRM')}
          </button>
        </div>
      </Modal>
    </div>
  );
}
