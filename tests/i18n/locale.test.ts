import { describe, expect, it } from 'vitest';
import { appLocale } from '../../src/i18n/locale';

describe('appLocale: the locale dates and numbers are read and shown in', () => {
  it('uses the browser region only when it speaks the app language', () => {
    expect(appLocale('en', ['en-GB', 'en'])).toBe('en-GB');
    expect(appLocale('en', ['en-GB', 'de-DE'])).toBe('en-GB');
    expect(appLocale('en', ['fr-FR'])).toBe('en');
    expect(appLocale('de', ['en-US', 'de-AT'])).toBe('de-AT');
    expect(appLocale('fr-FR', ['fr-CA'])).toBe('fr-CA');
    expect(appLocale('fr', [])).toBe('fr');
  });
});
