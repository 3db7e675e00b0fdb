// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { catalogueChangeSeen, noteCatalogueVersion, onCatalogueChange, resetCatalogueVersion } from '../../src/api/catalogue-version';
import { CATALOGUE_VERSION_HEADER } from '../../src/api/errors';
import { apiRequest, configureHttp } from '../../src/api/http';
import { fakeFetch, jsonResponse } from './fake-fetch';

/** The app's side of the Catalogue-Version header: a changed number reads kept metadata again. */
describe('catalogue version', () => {
  const changed = vi.fn();
  let off: () => void;
  beforeEach(() => {
    resetCatalogueVersion();
    localStorage.clear();
    off = onCatalogueChange(changed);
  });
  afterEach(() => {
    off();
    changed.mockReset();
  });

  it('the first number seen is only remembered; a different one is a change, the same one is not', () => {
    noteCatalogueVersion('7');
    expect(changed).not.toHaveBeenCalled();
    expect(catalogueChangeSeen()).toBe(false);
    noteCatalogueVersion('7');
    noteCatalogueVersion(null);
    expect(changed).not.toHaveBeenCalled();
    noteCatalogueVersion('8');
    expect(changed).toHaveBeenCalledTimes(1);
    expect(catalogueChangeSeen()).toBe(true);
    expect(localStorage.getItem('archive.catalogueVersion')).toBe('8');
  });

  it('every answer through apiRequest is looked at, refusals too', async () => {
    let version = '3';
    const f = fakeFetch((url) =>
      url.includes('refused')
        ? jsonResponse({ Message: 'No', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403, headers: { [CATALOGUE_VERSION_HEADER]: version } })
        : jsonResponse({ ok: true }, { headers: { [CATALOGUE_VERSION_HEADER]: version } }),
    );
    configureHttp({ fetchFn: f.fn, token: () => 'tok', baseUrl: () => '' });
    const schema = z.object({ ok: z.boolean() });
    await apiRequest({ path: '/api/a', schema });
    expect(changed).not.toHaveBeenCalled();
    version = '4';
    await expect(apiRequest({ path: '/api/refused', schema })).rejects.toThrow();
    expect(changed).toHaveBeenCalledTimes(1);
    await apiRequest({ path: '/api/a', schema });
    expect(changed).toHaveBeenCalledTimes(1);
  });
});
