// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { db } from '../../src/db/db';
import { i18n } from '../../src/i18n/i18n';
import { LANGUAGES, applyLanguage, loadLanguageMap, resolveLanguage } from '../../src/i18n/languages';
import { jsonResponse } from '../api/fake-fetch';

const dir = 'public/languages';
const en = JSON.parse(readFileSync(`${dir}/en.json`, 'utf8')) as Record<string, string>;
const enKeys = Object.keys(en).sort();

describe('language files', () => {
  it('there is a file for every language of the app and no other', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace('.json', '')).sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  for (const code of LANGUAGES) {
    it(`${code}.json has exactly the keys of en.json, all non-empty, same placeholders`, () => {
      const map = JSON.parse(readFileSync(`${dir}/${code}.json`, 'utf8')) as Record<string, string>;
      expect(Object.keys(map).sort()).toEqual(enKeys);
      for (const k of enKeys) {
        expect(typeof map[k], k).toBe('string');
        expect(map[k]!.trim(), k).not.toBe('');
        const ph = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
        expect(ph(map[k]!), `${code} ${k}`).toEqual(ph(en[k]!));
      }
    });
  }

  it('the spec catalogue keys are present (the user-app spec §8)', () => {
    for (const k of ['ERROR_NO_DATABASES', 'ERROR_GET_DATABASES', 'MESSAGE_THANK_YOU', 'COOKIE_DISABLED', 'ERROR_CANT_OBTAIN_LICENSE', 'DISCARDING_INVALID_GRID_SORT_MSG', 'UNABLE_TO_SAVE_ALL_ROWS_MSG', 'FILE_DOES_NOT_EXIST', 'ERROR_EXPORT_NO_RESULTS', 'ERROR_EXPORT_PDF_PENDING', 'ERROR_EXPORT_IN_WORKFLOW', 'ERROR_EXPORT_PDF_WORKFLOW_PENDING', 'ERROR_CREATE_SESSION_MSG', 'EMAIL_ALREADY_EXISTS', 'PASSWORD_UPDATED', 'ERROR_PASSWORD_UPDATE', 'ERROR_INCORRECT_PARAMETERS', 'ERROR_FAILED_DUE_TO_PERMISSIONS', 'ERROR_NOT_CONSUMING_A_LICENSE', 'ERROR_NO_DOCUMENTS_SELECTED', 'ERROR_IOEXPORT_CONNECT', 'ERROR_SCAN_ERROR', 'ERROR_IMPORT_MISSING_FIELDS', 'ERROR_IMPORT_DATATYPE_MISMATCH', 'ERROR_NO_ARCHIVE_SEARCHES', 'ERROR_UPDATE_REVISION_ARCHIVE', 'ERROR_CSV_UPDATE_DIRECT_SEARCH_REQUIRED', 'GSE_WRONG_VERSION', 'MESSAGE_LOADING', 'PASSWORDS_DONT_MATCH', 'PASSWORD_BLANK']) {
      expect(enKeys).toContain(k);
    }
  });
});

describe('language choice', () => {
  it('maps Romanian to English, regions to their language, unknown to English', () => {
    expect(resolveLanguage('ro')).toBe('en');
    expect(resolveLanguage('ro-RO')).toBe('en');
    expect(resolveLanguage('fr-CA')).toBe('fr');
    expect(resolveLanguage('DE')).toBe('de');
    expect(resolveLanguage('xx')).toBe('en');
    expect(resolveLanguage(undefined)).toBe('en');
  });

  it('tries the CDN first, then the server, and caches the map in Dexie', async () => {
    const asked: string[] = [];
    const map = await loadLanguageMap('fr', {
      cdnUrl: 'https://cdn.example/lang/',
      fetchFn: async (url) => {
        asked.push(url);
        return url.startsWith('https://cdn') ? new Response('nope', { status: 404 }) : jsonResponse({ LOGIN_TITLE: 'Connexion' });
      },
    });
    expect(asked).toEqual(['https://cdn.example/lang/fr.json', '/languages/fr.json']);
    expect(map).toEqual({ LOGIN_TITLE: 'Connexion' });
    expect((await db.languages.get('fr'))?.source).toBe('server');
  });

  it('offline uses the cached map', async () => {
    const map = await loadLanguageMap('fr', { fetchFn: async () => { throw new TypeError('offline'); } });
    expect(map).toEqual({ LOGIN_TITLE: 'Connexion' });
  });

  it('applyLanguage switches i18next and falls back to English keys missing in the map', async () => {
    await applyLanguage('fr', { fetchFn: async () => jsonResponse({ LOGIN_TITLE: 'Connexion' }) });
    expect(i18n.language).toBe('fr');
    expect(i18n.t('LOGIN_TITLE')).toBe('Connexion');
    expect(i18n.t('LOGIN_PASSWORD')).toBe('Password');
    expect(document.documentElement.lang).toBe('fr');
    await applyLanguage('ro');
    expect(i18n.language).toBe('en');
  });

  it('counted texts say one document, not "1 documents" (i18next plural forms, _one beside the plural)', async () => {
    const de = JSON.parse(readFileSync(`${dir}/de.json`, 'utf8')) as Record<string, string>;
    await applyLanguage('de', { fetchFn: async () => jsonResponse(de) });
    expect(i18n.t('DOCUMENTS_COPY_TITLE', { count: 1 })).toBe('1 Dokument kopieren nach');
    expect(i18n.t('DOCUMENTS_COPY_TITLE', { count: 3 })).toBe('3 Dokumente kopieren nach');
    await applyLanguage('en');
    expect(i18n.t('RESULTS_COUNT', { count: 1 })).toBe('1 document');
    expect(i18n.t('DOCUMENTS_JOB_DELETE', { count: 20 })).toBe('Delete 20 documents');
    for (const [key, text] of Object.entries(en)) {
      if (key.endsWith('_one')) expect(en[key.slice(0, -4)], `${key} has its plural`).toMatch(/\{\{count\}\}/);
      else if (/\{\{count\}\} documents\b/.test(text)) expect(en[`${key}_one`], `${key} needs a _one form`).toBeDefined();
    }
  });

  it('translation keys are typed from en.json', () => {
    // @ts-expect-error NOT_A_KEY is not in en.json: the typecheck fails on unknown keys
    expect(i18n.t('NOT_A_KEY')).toBe('NOT_A_KEY');
  });
});
