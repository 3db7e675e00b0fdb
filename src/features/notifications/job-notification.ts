/**
 * A system notification when a job ends while the tab is hidden (ARCHITECTURE.md "Long jobs"). Only
 * with the user's permission, asked from a button in the tray (never on load). Shown through the
 * service worker where there is one (Chrome on Android has no `new Notification`), else directly.
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
  const reg = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  for (const r of records) {
    const title = jobTitle(r, t);
    const options: NotificationOptions = { body: jobOutcome(r, t) ?? '', tag: `job-${r.id}` };
    try {
      if (reg) await reg.showNotification(title, options);
      else new Notification(title, options);
    } catch (e) {
      console.warn('Job notification not shown', e);
    }
  }
}
