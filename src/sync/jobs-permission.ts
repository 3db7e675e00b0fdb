/**
 * The system-notification permission for job ends (docs/architecture.md "Long jobs"; issue 10 item 4):
 * asked when the user starts the first long job (more than one document), never at load, and only
 * once per device: a person who closed the prompt is not asked again at every copy (the tray keeps
 * its button for that). In src/sync, not in the notifications feature, because the documents feature
 * starts the jobs and features do not import each other.
 */
import { db as defaultDb, type ArchiveDb } from '../db/db';

/** Dexie settings key: set once the browser's prompt has been shown from a job start. */
export const NOTIFICATION_ASKED_SETTING = 'jobNotificationAsked';

/** A job of more than one document may outlast the user's attention: worth a notification at its end. */
export const isLongJob = (documents: number): boolean => documents > 1;

/**
 * Asks for the permission when `documents` makes a long job, the browser has notifications, the
 * user has not answered yet and this device has not asked before. Resolves to the answer, or null
 * when nothing was asked. Call it from the click that starts the job (Firefox and Safari only show
 * the prompt during a user gesture).
 */
export async function askNotificationPermissionForJob(documents: number, database: ArchiveDb = defaultDb): Promise<NotificationPermission | null> {
  if (!isLongJob(documents)) return null;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return null;
  const asked = await database.settings.get(NOTIFICATION_ASKED_SETTING).catch(() => undefined);
  if (asked) return null;
  await database.settings.put({ key: NOTIFICATION_ASKED_SETTING, value: true }).catch(() => undefined);
  try {
    return await Notification.requestPermission();
  } catch {
    return null;
  }
}
