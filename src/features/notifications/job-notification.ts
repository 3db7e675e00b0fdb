/**
 * A system notification when a job ends while the tab is hidden (docs/architecture.md "Long jobs"). Only
 * with the user's permission, asked when the first long job starts (src/sync/jobs-permission.ts) or
 * from a button in the tray (never on load). Shown from the page,
 * so a click can bring the tab forward; through the service worker where the page may not (Chrome on
 * Android throws on `new Notification`).
 */
import type { JobRecord } from '../../db/db';
import { notify } from '../../ui/notifications';
import { jobOutcome, jobTitle } from './job-words';
import type { AppTFunction as TFunction } from '../../i18n/t-function';

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

/**
 * A job's end, told once: a toast that fades after 5 s (the user-app spec §9; the job stays listed in the
 * tray) and, while the tab is hidden, a system notification. `records` are the ends this page
 * claimed (src/sync/react/use-jobs-told.ts): whoever wrote them, each is told by one page.
 */
export async function announceJobsEnded(records: readonly JobRecord[], t: TFunction, toast: typeof notify = notify): Promise<void> {
  for (const r of records) {
    const text = t('JOB_ENDED_TOAST', { title: jobTitle(r, t), outcome: jobOutcome(r, t) ?? '' });
    toast(r.state === 'done' && !r.failed ? 'success' : r.state === 'cancelled' ? 'info' : 'error', text);
  }
  await notifyJobsEnded(records, t);
}

type BadgeNavigator = { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/**
 * The app's icon badge (Badging API) shows the running jobs, where the browser has it (installed
 * PWAs on Chromium, Safari); elsewhere nothing happens.
 */
export async function showAppBadge(running: number, nav: BadgeNavigator | undefined = typeof navigator === 'undefined' ? undefined : (navigator as BadgeNavigator)): Promise<void> {
  if (!nav?.setAppBadge || !nav.clearAppBadge) return;
  // A refusal (no installed app, a policy) is no error of the user's.
  await (running > 0 ? nav.setAppBadge(running) : nav.clearAppBadge()).catch(() => undefined);
}
