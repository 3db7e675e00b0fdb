// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../api/fake-fetch';

// English is a chunk of its own (src/i18n/resources.ts): held here until the test lets it arrive.
let arrive: (map: Record<string, string>) => void = () => undefined;
const englishRequested = vi.fn();
vi.mock('../../src/i18n/resources', () => ({
  loadEnglish: () => {
    englishRequested();
    return new Promise<Record<string, string>>((resolve) => (arrive = resolve));
  },
}));

const { applyLanguage } = await import('../../src/i18n/languages');
const { i18n } = await import('../../src/i18n/i18n');

describe('English texts out of the shell', () => {
  it('another language starts from its own map without waiting for English, which is asked for after it', async () => {
    const code = await applyLanguage('fr', { fetchFn: async () => jsonResponse({ NOTIFICATIONS: 'Notifications (fr)' }) });
    expect(code).toBe('fr');
    expect(i18n.t('NOTIFICATIONS')).toBe('Notifications (fr)');
    expect(englishRequested).toHaveBeenCalledTimes(1);
  });

  it('English waits for its chunk, asked for once', async () => {
    let done = false;
    const applied = applyLanguage('en').then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    arrive({ NOTIFICATIONS: 'Notifications' });
    await applied;
    expect(i18n.language).toBe('en');
    expect(englishRequested).toHaveBeenCalledTimes(1);
  });
});
