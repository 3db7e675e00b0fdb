/**
 * English, bundled into the app: the fallback when no other map is available, and the source of
 * the typed translation keys (i18next.d.ts). The same file is served as /languages/en.json.
 */
import en from '../../public/languages/en.json';

export const english = en;
export type TranslationMap = typeof en;
export type TranslationKey = keyof TranslationMap;
