/**
 * The locale dates and numbers are read and shown in: the app's language in the browser's own
 * region when the browser speaks that language (an English app on a British browser: en-GB), else
 * the language itself. One rule for search prompts, grid cells and editors.
 */
export function appLocale(appLanguage: string, browserLanguages: readonly string[]): string {
  const base = appLanguage.toLowerCase().split(/[-_]/)[0] || 'en';
  return browserLanguages.find((l) => l.toLowerCase().split(/[-_]/)[0] === base) ?? base;
}

/** appLocale for this browser. */
export function browserAppLocale(appLanguage: string): string {
  const browser = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  return appLocale(appLanguage, browser);
}
