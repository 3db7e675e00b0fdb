/**
 * Which language the app speaks and where its map comes from. Order of sources: the CDN
 * (config.languageCdnUrl + '/{code}.json') when configured, then the server's /languages/{code}.json,
 * then the copy cached in the Dexie `languages` table (so the app keeps its language offline).
 * English comes with the app (a chunk the service worker precaches) and is never fetched. The chosen code is kept in Dexie settings ('language').
 */
import * as z from 'zod/mini';
import { db } from '../db/db';
import { LANGUAGES, LANGUAGE_ALIASES, type LanguageCode } from '../api/constants';
import { i18n } from './i18n';
import { loadEnglish } from './resources';

export { LANGUAGES, type LanguageCode };

const LanguageMap = z.record(z.string(), z.string());
const LANGUAGE_SETTING = 'language';

/** Any code (fr-CA, RO, de) to one of the app's languages; Romanian and unknown codes to English. */
export function resolveLanguage(code: string | null | undefined): LanguageCode {
  const base = (code ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const alias = LANGUAGE_ALIASES[base];
  if (alias) return alias;
  return (LANGUAGES as readonly string[]).includes(base) ? (base as LanguageCode) : 'en';
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

async function fetchMap(url: string, fetchFn: Fetch): Promise<Record<string, string> | null> {
  try {
    const res = await fetchFn(url, { cache: 'no-cache' });
    if (!res.ok) return null;
    const parsed = LanguageMap.safeParse(await res.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface LoadLanguageOptions {
  cdnUrl?: string;
  fetchFn?: Fetch;
}

/** The map of one language: network first (CDN, then server), then the cache; null if none. */
export async function loadLanguageMap(code: LanguageCode, opts: LoadLanguageOptions = {}): Promise<Record<string, string> | null> {
  const fetchFn = opts.fetchFn ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const cdn = opts.cdnUrl?.replace(/\/+$/, '');
  const sources: { url: string; source: 'cdn' | 'server' }[] = [];
  if (cdn) sources.push({ url: `${cdn}/${code}.json`, source: 'cdn' });
  sources.push({ url: `/languages/${code}.json`, source: 'server' });
  for (const s of sources) {
    const map = await fetchMap(s.url, fetchFn);
    if (map) {
      await db.languages.put({ code, map, source: s.source, fetchedAt: Date.now() }).catch(() => undefined);
      return map;
    }
  }
  const cached = await db.languages.get(code).catch(() => undefined);
  const parsed = LanguageMap.safeParse(cached?.map);
  return parsed.success ? parsed.data : null;
}

let englishAdded: Promise<void> | null = null;

/** English into i18next, once: every language falls back to it for a key its map lacks. */
function addEnglish(): Promise<void> {
  englishAdded ??= loadEnglish().then(
    (map) => void i18n.addResourceBundle('en', 'translation', map, true, true),
    (err: unknown) => {
      englishAdded = null;
      throw err;
    },
  );
  return englishAdded;
}

/**
 * Switches the app to a language (loading its map first) and remembers the choice. English, the
 * fallback for a key a map lacks (a CDN's copy older than the app), is awaited only when it is the
 * language; for another one it loads after that language's map, without holding the first screen
 * (the app's own maps have every key: tests/i18n/languages.test.ts).
 */
export async function applyLanguage(requested: string, opts: LoadLanguageOptions = {}): Promise<LanguageCode> {
  let code = resolveLanguage(requested);
  if (code !== 'en') {
    const map = await loadLanguageMap(code, opts);
    if (map) i18n.addResourceBundle(code, 'translation', map, true, true);
    else code = 'en';
  }
  // A chunk that failed to load (a deployment replaced it mid-start) leaves the chosen map alone.
  const english = addEnglish().catch(() => undefined);
  if (code === 'en') await english;
  await i18n.changeLanguage(code);
  if (typeof document !== 'undefined') document.documentElement.lang = code;
  await db.settings.put({ key: LANGUAGE_SETTING, value: code }).catch(() => undefined);
  return code;
}

/** The remembered language, else the browser's, else English. */
export async function initialLanguage(): Promise<LanguageCode> {
  const saved = await db.settings.get(LANGUAGE_SETTING).catch(() => undefined);
  if (typeof saved?.value === 'string') return resolveLanguage(saved.value);
  return resolveLanguage(typeof navigator !== 'undefined' ? navigator.language : 'en');
}
