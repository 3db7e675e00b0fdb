/**
 * Key-free extraction's toolbar part: the on/off toggle (pressed while on) and what is happening,
 * said in a live region: the words being read, the field a picked word fills ("Tap a word for:
 * Invoice number"), why extraction cannot start or stopped (an alert when it is an error).
 */
import { useTranslation } from 'react-i18next';
import type { KeyFreeNotice } from './keyfree-logic';

export function KeyFreeControl(props: { state: 'off' | 'loading' | 'ready'; field: string | null; notice: KeyFreeNotice | null; onToggle: () => void }) {
  const { t, i18n } = useTranslation();
  const { state, field, notice } = props;
  // The indexer's refusals come as keys of the catalogue; one this app has no text for is said generally.
  const said = notice ? (i18n.exists(notice.key) ? t(notice.key as 'KEYFREE_WORD_REFUSED', notice.values as { field: string; word: string }) : t('KEYFREE_WORD_REFUSED', { field: notice.values?.field ?? '', word: notice.values?.word ?? '' })) : null;
  const on = state !== 'off';
  let status: string | null = null;
  if (state === 'loading') status = t('KEYFREE_READING');
  else if (state === 'ready' && field) status = t('KEYFREE_PICK_FOR', { field });
  return (
    <div className="viewer-group keyfree-control">
      <button type="button" className="button" aria-pressed={on} onClick={props.onToggle}>
        {t('KEYFREE_TOGGLE')}
      </button>
      <span className="keyfree-status" role="status" data-testid="keyfree-status">
        {status}
      </span>
      {notice && (
        <span className={notice.error ? 'keyfree-notice keyfree-error' : 'keyfree-notice'} role={notice.error ? 'alert' : 'status'} data-testid="keyfree-notice">
          {said}
        </span>
      )}
    </div>
  );
}
