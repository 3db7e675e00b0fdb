/**
 * The app's configuration: /config.json (public/config.json), validated with zod and completed with
 * defaults. The last good copy is kept in Dexie settings ('config') so the app starts offline with
 * the configuration it had; with neither, the defaults below apply. Read synchronously with
 * getConfig() after loadConfig() has run once at start.
 */
import { z } from 'zod';
import { db } from '../db/db';
import { RECORDS_PER_PAGE, HELPER } from '../api/constants';

export const AppConfig = z.object({
  apiBaseUrl: z.string().default(''),
  languageCdnUrl: z.string().default(''),
  gridLicenseKey: z.string().default('non-commercial-and-evaluation'),
  defaultRecordsPerPage: z.number().int().min(1).max(RECORDS_PER_PAGE.max).default(RECORDS_PER_PAGE.configDefault),
  helperPort: z.number().int().min(1).max(65535).default(HELPER.port),
  helperSslPort: z.number().int().min(1).max(65535).default(HELPER.sslPort),
  helperUseSsl: z.boolean().default(HELPER.useSsl),
  leaseRecheckSeconds: z.number().int().min(0).default(60),
});
export type AppConfig = z.infer<typeof AppConfig>;

const CONFIG_SETTING = 'config';
export const DEFAULT_CONFIG: AppConfig = AppConfig.parse({});

let current: AppConfig = DEFAULT_CONFIG;

export function getConfig(): AppConfig {
  return current;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export async function loadConfig(fetchFn: Fetch = (i, init) => fetch(i, init)): Promise<AppConfig> {
  try {
    const res = await fetchFn('/config.json', { cache: 'no-cache' });
    if (res.ok) {
      const parsed = AppConfig.safeParse(await res.json());
      if (parsed.success) {
        current = parsed.data;
        await db.settings.put({ key: CONFIG_SETTING, value: parsed.data }).catch(() => undefined);
        return current;
      }
      console.error('config.json does not fit the expected shape', parsed.error);
    }
  } catch {
    // offline: fall back to the cached copy
  }
  const cached = await db.settings.get(CONFIG_SETTING).catch(() => undefined);
  const parsed = AppConfig.safeParse(cached?.value ?? {});
  current = parsed.success ? parsed.data : DEFAULT_CONFIG;
  return current;
}
