/**
 * The app's configuration: /config.json (public/config.json), validated with zod and completed with
 * defaults. The last good copy is kept in Dexie settings ('config') so the app starts offline with
 * the configuration it had; with neither, the defaults below apply. Read synchronously with
 * getConfig() after loadConfig() has run once at start.
 */
import * as z from 'zod/mini';
import { db } from '../db/db';
import { RECORDS_PER_PAGE, HELPER } from '../api/constants';

export const AppConfig = z.object({
  apiBaseUrl: z._default(z.string(), ''),
  languageCdnUrl: z._default(z.string(), ''),
  gridLicenseKey: z._default(z.string(), 'non-commercial-and-evaluation'),
  defaultRecordsPerPage: z._default(z.int().check(z.minimum(1), z.maximum(RECORDS_PER_PAGE.max)), RECORDS_PER_PAGE.configDefault),
  helperPort: z._default(z.int().check(z.minimum(1), z.maximum(65535)), HELPER.port),
  helperSslPort: z._default(z.int().check(z.minimum(1), z.maximum(65535)), HELPER.sslPort),
  helperUseSsl: z._default(z.boolean(), HELPER.useSsl),
  leaseRecheckSeconds: z._default(z.int().check(z.minimum(0)), 60),
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
