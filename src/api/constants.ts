/** Business constants and limits of the user-app spec §9, shared by the app, workers and the server. */
export const RECORDS_PER_PAGE = {
  configDefault: 25,
  searchScreenDefault: 10,
  choices: [25, 50, 100, 1000, 10000],
  max: 10000,
} as const;

export const THUMBNAIL = { grid: 120, popoverWidth: 150, popoverHeight: 150, previewWidth: 600, previewHeight: 800, pageSizes: [10, 20, 50], desktopPageSizes: [100, 200] } as const;
export const GRID_LIST_LIMIT = 1000;
export const HISTORY_PAGE_SIZE = 25;
export const PAGER_WINDOW = 2;
export const PAGE_DEBOUNCE_MS = 1000;
export const NOTIFICATION_FADE_MS = 5000;
export const ALERT_RESHOW_MS = 12 * 60 * 60 * 1000;

export const HELPER = {
  port: 9080,
  sslPort: 9443,
  useSsl: true,
  pingMs: 5000,
  timeoutMs: 10_000,
  connectionIssueMs: 10_000,
  sessionTimeoutSeconds: 3600,
  chunkSize: 1_048_576,
  chunkIntervalMs: 500,
  scanPollMs: 3000,
  firstScanPollMs: 5000,
} as const;

export const DEFAULT_DELIMITERS = { field: ',', string: '"' } as const;

/** Languages of the app; Romanian maps to English (the user-app spec §9). */
export const LANGUAGES = ['en', 'fr', 'es', 'pt', 'it', 'de', 'nl'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];
export const LANGUAGE_ALIASES: Readonly<Record<string, LanguageCode>> = { ro: 'en' };

/** Records per page on a screen: 1..10000, anything else falls back (the user-app spec §5, §9). */
export function normaliseRecordsPerPage(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > RECORDS_PER_PAGE.max) return fallback;
  return n;
}
