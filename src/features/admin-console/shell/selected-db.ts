/**
 * The console's selected database (the console spec §2): remembered in local storage (per user) and
 * restored, else the database the user works in in the app (src/app/routes/admin-full.tsx passes it);
 * with one database it is chosen by itself, with none none is. The address's db wins.
 */
const STORAGE_KEY = 'adminConsole.db';

const keyFor = (scope: string | null) => `${STORAGE_KEY}:${scope ?? ''}`;

export function readRememberedDb(scope: string | null): number | null {
  try {
    const v = Number(localStorage.getItem(keyFor(scope)));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

export function rememberDb(scope: string | null, dbId: number | null): void {
  try {
    if (dbId === null) localStorage.removeItem(keyFor(scope));
    else localStorage.setItem(keyFor(scope), String(dbId));
  } catch {
    // storage refused (private mode): the choice lasts this visit only
  }
}

/** The database to show: the asked one if it exists, else the remembered one, else the app's, else the only one, else none. */
export function pickDb(ids: readonly number[], fromAddress: number | null, remembered: number | null, app: number | null = null): number | null {
  if (fromAddress !== null && ids.includes(fromAddress)) return fromAddress;
  if (remembered !== null && ids.includes(remembered)) return remembered;
  if (app !== null && ids.includes(app)) return app;
  if (ids.length === 1) return ids[0]!;
  return null;
}
