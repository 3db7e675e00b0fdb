/**
 * Can this browser keep anything? The app needs localStorage (a synchronous flag or two) and
 * IndexedDB (everything else). Private modes and disabled site data break one or both; the app then
 * shows COOKIE_DISABLED (the user-app spec §8) instead of failing later in odd ways.
 */
export async function isStorageAvailable(): Promise<boolean> {
  try {
    const probe = '__archive_storage_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
  } catch {
    return false;
  }
  if (typeof indexedDB === 'undefined') return false;
  return new Promise<boolean>((resolve) => {
    try {
      const req = indexedDB.open('__archive_storage_probe__');
      req.onsuccess = () => {
        req.result.close();
        resolve(true);
      };
      req.onerror = () => resolve(false);
      req.onblocked = () => resolve(true);
    } catch {
      resolve(false);
    }
  });
}
