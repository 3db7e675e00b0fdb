// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { AppConfig, DEFAULT_CONFIG, loadConfig } from '../../src/app/config';
import { jsonResponse } from '../api/fake-fetch';

describe('config', () => {
  it('public/config.json fits the schema', () => {
    const parsed = AppConfig.parse(JSON.parse(readFileSync('public/config.json', 'utf8')));
    expect(parsed).toEqual(DEFAULT_CONFIG);
  });

  it('fills missing values with defaults and caches the answer for offline starts', async () => {
    const cfg = await loadConfig(async () => jsonResponse({ apiBaseUrl: 'https://x', defaultRecordsPerPage: 50 }));
    expect(cfg.apiBaseUrl).toBe('https://x');
    expect(cfg.helperPort).toBe(9080);
    const offline = await loadConfig(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(offline.defaultRecordsPerPage).toBe(50);
  });

  it('ignores a config that does not fit and uses the cached one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const cfg = await loadConfig(async () => jsonResponse({ helperPort: 'nine' }));
    expect(cfg.helperPort).toBe(9080);
    expect(cfg.apiBaseUrl).toBe('https://x');
  });
});
