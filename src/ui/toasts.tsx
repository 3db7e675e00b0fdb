import { useTranslation } from 'react-i18next';
import { dismiss, useToasts } from './notifications';

export function Toasts() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return (
    <section className="toasts" aria-label={t('NOTIFICATIONS')}>
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="icon-button" aria-label={t('DISMISS_NOTIFICATION')} onClick={() => dismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
