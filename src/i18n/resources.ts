/**
 * English: the fallback when a map lacks a key, and the source of the typed translation keys
 * (i18next.d.ts). The same file is served as /languages/en.json. It loads as its own chunk at start
 * (beside the chosen language's map), not inside the shell: ~10 KB gzip of text, most of it for
 * later screens, that a first screen in another language never shows. The service worker precaches
 * the chunk with the others, so it loads offline.
 */
import type en from '../../public/languages/en.json';

export type TranslationMap = typeof en;
export type TranslationKey = keyof TranslationMap;

export async function loadEnglish(): Promise<Record<string, string>> {
  return (await import('../../public/languages/en.json')).default;
}
