/**
 * Local settings of the user-app spec §3, kept on the device in Dexie settings ('localSettings'),
 * validated on read so an old or damaged record falls back to the defaults. Shared (search, results,
 * history read it; the settings route writes it), so it lives beside the database, not in a feature.
 */
import * as z from 'zod/mini';
import { db } from './db';
import { HELPER } from '../api/constants';

export const LocalSettings = z.object({
  searchSetting: z.prefault(
    z.object({
      archHistoryPageSize: z._default(z.int().check(z.positive()), 25),
      disableOpenDoc: z._default(z.boolean(), false),
      multiArchiveCountSort: z._default(z.boolean(), false),
      multiArchiveHideEmpty: z._default(z.boolean(), false),
      openNewTab: z._default(z.boolean(), false),
    }),
    {},
  ),
  showGlobalActionTasks: z._default(z.boolean(), false),
  taskSearches: z._default(z.array(z.object({ Key: z.string(), Visible: z.boolean(), WorkflowId: z.int() })), []),
  showVersionArchive: z._default(z.boolean(), false),
  autoRunDefaultSearchOnClick: z._default(z.boolean(), false),
  /**
   * The Export tab's defaults for the export dialogs (the user-app spec §2, §3 Export settings, named as the
   * spec's ExportSettings). Delimiters default to comma and double quote (§9).
   */
  exportDefaults: z.prefault(
    z.object({
      FilePath: z._default(z.string(), ''),
      Filename: z._default(z.string(), ''),
      ExportWithCSV: z._default(z.boolean(), true),
      FieldDelimiter: z._default(z.string(), ','),
      StringDelimiter: z._default(z.string(), '"'),
      UseString: z._default(z.boolean(), false),
      ExportWithMappedFields: z._default(z.boolean(), false),
      ConvertToPDF: z._default(z.boolean(), false),
      ConvertToBW: z._default(z.boolean(), false),
      WithAnnotations: z._default(z.boolean(), false),
    }),
    {},
  ),
  scanner: z.prefault(
    z.object({
      port: z._default(z.int().check(z.minimum(1), z.maximum(65535)), HELPER.port),
      sslPort: z._default(z.int().check(z.minimum(1), z.maximum(65535)), HELPER.sslPort),
      useSsl: z._default(z.boolean(), HELPER.useSsl),
    }),
    {},
  ),
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
