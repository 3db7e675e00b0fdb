import * as z from 'zod/mini';
import { ARCHIVE_PROPS } from './archives';
import type { Camelize } from './case';
import { isMaterialIcon, MATERIAL_ICON_NAMES } from './material-icons';
import { SEARCH_CONDITIONS, SearchCondition } from './search';

/**
 * Saved searches in the administration console (the console spec §3 Search, §5, §7), written in
 * the wire's PascalCase (adminCall converts to camelCase in the console):
 *
 *   GET    searchAdminPaths.list(db)        -> AdminSearchList (every search of the database)
 *   GET    searchAdminPaths.one(db, id)     -> AdminSearch
 *   POST   searchAdminPaths.list(db)        AdminSearchInput -> AdminSearchSaved
 *   PUT    searchAdminPaths.one(db, id)     AdminSearchInput -> AdminSearchSaved
 *   DELETE searchAdminPaths.one(db, id)     -> 204
 *   GET    searchAdminPaths.designer(db)    -> DesignerCatalog: the archives with their fields, what
 *          the search, advanced-link and DXC editors offer (not a spec path: the spec leaves payloads open)
 *
 * Every call is for administrators of the database (403 ERROR_FAILED_DUE_TO_PERMISSIONS otherwise);
 * a read-only licence (type 4) reads but changes nothing. On save the server:
 * - removes 'Versions' archives (an archive with Props bit 16) from Archives;
 * - drops parameters whose field is deleted or in none of the search's archives, and names them
 *   in Dropped (the console says FIELD_DELETED_EDIT_SEARCH_MSG);
 * - refuses an icon that is not a Material Icons name (400 ADMIN_SEARCH_ICON_INVALID), an unknown
 *   archive, a parent that is not another search of the database or would make a cycle (400);
 * - with GrantAll, grants the run right (1) on the search to every user and every group.
 * A saved search is at once in the user app's list (GET api/dbs/{db}/searches) when ShownInList.
 * Field 0 in a parameter is the content-search text (condition Contains); it sets Props bit 1.
 */

const base = '/api/admin/databases';
export const searchAdminPaths = {
  list: (db: number) => `${base}/${db}/searches`,
  one: (db: number, id: number) => `${base}/${db}/searches/${id}`,
  designer: (db: number) => `${base}/${db}/designer`,
} as const;

/** Autocomplete lists of the console hold at most this many items (the console spec §9). */
export const ADMIN_AUTOCOMPLETE_CAP = 100;
export const SEARCH_NAME_MAX = 200;
export const SEARCH_PROMPT_MAX = 200;
/** The field id of the content-search text parameter. */
export const CONTENT_SEARCH_FIELD = 0;
export const FUZZINESS_MAX = 5;

export { SEARCH_CONDITIONS };

export const SearchParameter = z.object({
  Field: z.int().check(z.minimum(0)),
  Prompt: z.string().check(z.maxLength(SEARCH_PROMPT_MAX)),
  Condition: SearchCondition,
});
export type SearchParameter = z.infer<typeof SearchParameter>;

export const ContentSearchOptions = z.object({
  Phonics: z.boolean(),
  Stemming: z.boolean(),
  Fuzziness: z.int().check(z.minimum(0), z.maximum(FUZZINESS_MAX)),
});
export type ContentSearchOptions = z.infer<typeof ContentSearchOptions>;

export const AdminSearchInput = z.object({
  Name: z.string().check(z.trim(), z.minLength(1), z.maxLength(SEARCH_NAME_MAX)),
  /** 0: top level; else the id of another search of the database. */
  Parent: z.int().check(z.minimum(0)),
  Archives: z.array(z.int().check(z.positive())),
  Icon: z.nullable(z.string().check(z.maxLength(100))),
  Parameters: z.array(SearchParameter),
  AdvancedGrouping: z.boolean(),
  GrantAll: z.boolean(),
  ContentSearch: ContentSearchOptions,
  MultiValue: z.boolean(),
  DisplayViewTabs: z.boolean(),
  UseTime: z.boolean(),
  /** Listed in the user's search list (Settings bit 4). */
  ShownInList: z.boolean(),
  /** The database's default search (Settings bit 8; one per database). */
  IsDefault: z.boolean(),
});
export type AdminSearchInput = z.infer<typeof AdminSearchInput>;

export const AdminSearch = z.extend(AdminSearchInput, { Id: z.int(), Hash: z.string() });
export type AdminSearch = z.infer<typeof AdminSearch>;
export const AdminSearchList = z.array(AdminSearch);

export const DroppedParameter = z.object({ Field: z.int(), Prompt: z.string() });
export type DroppedParameter = z.infer<typeof DroppedParameter>;
export const AdminSearchSaved = z.object({ Search: AdminSearch, Dropped: z.array(DroppedParameter), RemovedArchives: z.array(z.int()) });
export type AdminSearchSaved = z.infer<typeof AdminSearchSaved>;

export const DesignerField = z.object({ Id: z.int(), Name: z.string(), Type: z.int() });
export type DesignerField = z.infer<typeof DesignerField>;
export const DesignerArchive = z.object({
  Id: z.int(),
  Name: z.string(),
  Parent: z.nullable(z.int()),
  /** A versions archive (Props bit 16): never one of a search's archives. */
  IsVersions: z.boolean(),
  ContentSearch: z.boolean(),
  Fields: z.array(DesignerField),
});
export type DesignerArchive = z.infer<typeof DesignerArchive>;
export const DesignerCatalog = z.object({ Archives: z.array(DesignerArchive) });
export type DesignerCatalog = z.infer<typeof DesignerCatalog>;

// --- rules shared by the server and the console (pure) ---------------------------------------

/** §5: the 'Versions' archive is removed from search archives. Returns the kept ids and the removed ones. */
export function withoutVersionsArchives(
  ids: readonly number[],
  archives: readonly { id: number; props?: number; isVersions?: boolean }[],
): { kept: number[]; removed: number[] } {
  const versions = new Set(archives.filter((a) => a.isVersions || ((a.props ?? 0) & ARCHIVE_PROPS.versionsArchive) !== 0).map((a) => a.id));
  const kept: number[] = [];
  const removed: number[] = [];
  for (const id of ids) {
    if (versions.has(id)) removed.push(id);
    else if (!kept.includes(id)) kept.push(id);
  }
  return { kept, removed };
}

/**
 * §5: parameters whose field is deleted or in none of the search's archives are dropped. `fieldIds`
 * are the fields of the search's archives; the content-search parameter (field 0) is always kept.
 */
export function splitParameters<P>(params: readonly P[], fieldOf: (p: P) => number, fieldIds: ReadonlySet<number>): { kept: P[]; dropped: P[] } {
  const kept: P[] = [];
  const dropped: P[] = [];
  for (const p of params) {
    const f = fieldOf(p);
    (f === CONTENT_SEARCH_FIELD || fieldIds.has(f) ? kept : dropped).push(p);
  }
  return { kept, dropped };
}

/** §5: a top-level search (parent 0) with no archives is warned about. */
export function warnsNoArchives(parent: number, archives: readonly number[]): boolean {
  return parent === 0 && archives.length === 0;
}

/** §5: the icon is empty or a Material Icons name. */
export function validIcon(icon: string | null): boolean {
  return icon === null || icon === '' || isMaterialIcon(icon);
}

/** The icon picker's suggestions: names starting with the text first, then containing it; at most the cap. */
export function iconSuggestions(text: string, cap = ADMIN_AUTOCOMPLETE_CAP): string[] {
  const q = text.trim().toLowerCase().replace(/\s+/g, '_');
  if (!q) return MATERIAL_ICON_NAMES.slice(0, cap);
  const starts: string[] = [];
  const contains: string[] = [];
  for (const n of MATERIAL_ICON_NAMES) {
    if (n.startsWith(q)) starts.push(n);
    else if (n.includes(q)) contains.push(n);
    if (starts.length >= cap) break;
  }
  return [...starts, ...contains].slice(0, cap);
}

/** Conditions a parameter may take: IsEmpty/IsNotEmpty/Range need a field; the content-search text is Contains. */
export function conditionsFor(field: number): readonly (typeof SEARCH_CONDITIONS)[number][] {
  return field === CONTENT_SEARCH_FIELD ? ['Contains'] : SEARCH_CONDITIONS;
}

/** A new search as the console edits it (camelCase, as adminCall hands it over). */
export function emptySearch(): Camelize<AdminSearchInput> {
  return {
    name: '',
    parent: 0,
    archives: [],
    icon: null,
    parameters: [],
    advancedGrouping: false,
    grantAll: false,
    contentSearch: { phonics: false, stemming: false, fuzziness: 0 },
    multiValue: false,
    displayViewTabs: false,
    useTime: false,
    shownInList: true,
    isDefault: false,
  };
}
