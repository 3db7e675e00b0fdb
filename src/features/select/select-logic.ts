/**
 * Which database is selected when the list arrives (the user-app spec §3): with one database it is
 * selected automatically, with none none is; otherwise the remembered one is restored if it is
 * still in the list. The remembered id lives in Dexie settings ('selectedDb').
 */
import { db } from '../../db/db';
import type { Database } from '../../api/databases';

export interface Selection {
  selectedId: number | null;
  /** Go on to the database without asking (exactly one database). */
  autoOpen: boolean;
}

export function initialSelection(databases: readonly Database[], rememberedId: number | null): Selection {
  if (databases.length === 0) return { selectedId: null, autoOpen: false };
  if (databases.length === 1) return { selectedId: databases[0]!.Id, autoOpen: true };
  const remembered = databases.find((d) => d.Id === rememberedId);
  return { selectedId: remembered ? remembered.Id : null, autoOpen: false };
}

const SELECTED_DB = 'selectedDb';

export async function getRememberedDatabase(): Promise<number | null> {
  const rec = await db.settings.get(SELECTED_DB).catch(() => undefined);
  return typeof rec?.value === 'number' ? rec.value : null;
}

export async function rememberDatabase(id: number): Promise<void> {
  await db.settings.put({ key: SELECTED_DB, value: id }).catch(() => undefined);
}
