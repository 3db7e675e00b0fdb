/** The contract's English error texts (used where no i18next runs: the service worker) are en.json's. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { API_TEXT, apiText, configureApiText, type ApiTextKey } from '../../src/api/api-text';

const en = JSON.parse(readFileSync(new URL('../../public/languages/en.json', import.meta.url), 'utf8')) as Record<string, string>;

afterEach(() => configureApiText(null));

describe('api text', () => {
  it('has the same English as public/languages/en.json, key by key', () => {
    for (const [key, text] of Object.entries(API_TEXT)) expect(text, key).toBe(en[key]);
  });

  it('fills the placeholders without i18next, and uses the translator the app plugs in', () => {
    expect(apiText('ERROR_NETWORK', { method: 'PUT', url: '/api/x' })).toBe('The server could not be reached (PUT /api/x).');
    configureApiText((key: ApiTextKey, params) => `${key}:${params?.method ?? ''}`);
    expect(apiText('ERROR_NETWORK', { method: 'PUT', url: '/api/x' })).toBe('ERROR_NETWORK:PUT');
  });
});
