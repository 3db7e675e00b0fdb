/**
 * The catalogue version the server sends on every authenticated answer (CATALOGUE_VERSION_HEADER;
 * server/services/catalogue-version.ts). The app keeps archive fields, lists, searches and the
 * like for minutes, and on the device across reloads; when an answer carries a number other than
 * the one this tab saw last, everything kept is read again (onCatalogueChange: the query client's
 * invalidateServerData), so what an administrator changed shows on every device at its next call.
 *
 * The number seen last is this tab's own (two tabs each hear the change), and is also stored so a
 * reload that finds a different number reads the cache restored from the device again.
 */
const STORAGE_KEY = 'archive.catalogueVersion';

/** The page's localStorage; none in a worker (src/api also runs there). */
type KeyValue = { getItem(key: string): string | null; setItem(key: string, value: string): void };
const storage = (): KeyValue | undefined => (globalThis as { localStorage?: KeyValue }).localStorage;

function stored(): string | null {
  try {
    return storage()?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

let seen: string | null = stored();
let changed = false;
const listeners = new Set<() => void>();

/** A change was heard since this page started (the cache restored from the device may predate it). */
export function catalogueChangeSeen(): boolean {
  return changed;
}

/** An answer's header value (null: the answer had none). */
export function noteCatalogueVersion(version: string | null): void {
  if (!version || version === seen) return;
  const before = seen;
  seen = version;
  try {
    storage()?.setItem(STORAGE_KEY, version);
  } catch {
    // Not stored: the next reload compares with nothing and keeps what it restored.
  }
  // The first number this device sees: nothing to compare with.
  if (before === null) return;
  changed = true;
  for (const l of [...listeners]) l();
}

export function onCatalogueChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** For tests: forget the number seen. */
export function resetCatalogueVersion(): void {
  seen = null;
  changed = false;
}
