// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isStorageAvailable } from '../../src/pwa/storage';

describe('isStorageAvailable (COOKIE_DISABLED)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is true when localStorage and IndexedDB both work', async () => {
    expect(await isStorageAvailable()).toBe(true);
  });

  it('is false when localStorage refuses writes, as in a locked-down browser', async () => {
    const locked = {
      setItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      removeItem: () => undefined,
    } as unknown as Storage;
    vi.spyOn(window, 'localStorage', 'get').mockReturnValue(locked);
    expect(await isStorageAvailable()).toBe(false);
  });
});
