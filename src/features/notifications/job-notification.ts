/**
 * A system notification when a job ends while the tab is hidden (ARCHITECTURE.md "Long jobs"). Only
 * with the user's permission, asked from a button in the tray (never on load). Shown from the page,
 * so a click can bring the tab forward; through the service worker where the page may not (Chrome on
 * Android throws on `new Notification`).
 */
import type { useTranslation } from 'react-i18next';
import type { JobRecord } from '../../db/db';
import { jobOutcome, jobTitle } from './job-words';

type TFunction = ReturnType<typeof useTranslation>['t'];

export const canAskNotificationPermission = (): boolean => typeof Notification !== 'undefined' && Notification.permission === 'default';

export async function askNotificationPermission(): Promise<NotificationPermission | null> {
  if (typeof Notification === 'undefined') return null;
  return Notification.requestPermission();
}

export async function notifyJobsEnded(records: readonly JobRecord[], t: TFunction): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  for (const r of records) {
    const title = jobTitle(r, t);
    const options: NotificationOptions = { body: jobOutcome(r, t) ?? '', tag: `job-${r.id}` };
    try {
      const n = new Notification(title, options);
      // A click brings the app's tab forward (the tray shows the job).
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Chrome on Android allows notifications only through the service worker.
      const reg = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
      await reg?.showNotification(title, options).catch((e: unknown) => console.warn('Job notification not shown', e));
    }
  }
}
