/**
 * Local settings of user-app.md §3, kept on the device in Dexie settings ('localSettings'),
 * validated on read so an old or damaged record falls back to the defaults.
 */
import { z } from 'zod';
import { db } from '../../db/db';
import { HELPER } from '../../api/constants';

export const LocalSettings = z.object({
  searchSetting: z
    .object({
      archHistoryPageSize: z.number().int().positive().default(25),
      disableOpenDoc: z.boolean().default(false),
      multiArchiveCountSort: z.boolean().default(false),
      multiArchiveHideEmpty: z.boolean().default(false),
      openNewTab: z.boolean().default(false),
    })
    .prefault({}),
  showGlobalActionTasks: z.boolean().default(false),
  taskSearches: z.array(z.object({ Key: z.string(), Visible: z.boolean(), WorkflowId: z.number().int() })).default([]),
  showVersionArchive: z.boolean().default(false),
  autoRunDefaultSearchOnClick: z.boolean().default(false),
  scanner: z
    .object({
      port: z.number().int().min(1).max(65535).default(HELPER.port),
      sslPort: z.number().int().min(1).max(65535).default(HELPER.sslPort),
      useSsl: z.boolean().default(HELPER.useSsl),
    })
    .prefault({}),
});
export type LocalSettings = z.infer<typeof LocalSettings>;

const KEY = 'localSettings';

export async function readLocalSettings(): Promise<LocalSettings> {
  const rec = await db.settings.get(KEY).catch(() => undefined);
  const parsed = LocalSettings.safeParse(rec?.value ?? {});
  return parsed.success ? parsed.data : LocalSettings.parse({});
}

export async function writeLocalSettings(s: LocalSettings): Promise<void> {
  await db.settings.put({ key: KEY, value: LocalSettings.parse(s) });
}
