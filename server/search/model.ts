/**
 * What a search runs on, read from the catalogue: the search, its prompts, an archive's fields.
 * Shapes on the wire are in src/api/search.ts and src/api/archives.ts.
 */
import { FIELD_PROPS, type Field } from '../../src/api/archives.js';
import { currencyForCountry } from '../../src/fields/locale.js';
import { SEARCH_CONDITIONS, type SearchCondition, type SearchPrompt } from '../../src/api/search.js';
import type { Queryable } from '../db/store.js';

export interface FieldRow {
  id: number;
  name: string;
  type: number;
  size: number;
  mask: string | null;
  regex: string | null;
  prop: number;
  list_id: number | null;
  list_f1: number | null;
  list_f2: number | null;
  parent_id: number | null;
  multi_value: boolean;
  extended_config: Record<string, unknown> | null;
  /** The country of the archive the field was read for (archiveFields); its currency is the field's Currency. */
  archive_country?: string | null;
}

/** Values of multi-value fields and table-field columns live in documents.mvals. */
export const isMulti = (f: Pick<FieldRow, 'multi_value' | 'parent_id' | 'prop'>) => f.multi_value || f.parent_id !== null || (f.prop & FIELD_PROPS.multiValue) !== 0;

const FIELD_COLUMNS = 'f.id, f.name, f.type, f.size, f.mask, f.regex, f.prop, f.list_id, f.list_f1, f.list_f2, f.parent_id, f.multi_value, f.extended_config';

export async function archiveFields(db: Queryable, archiveId: number): Promise<FieldRow[]> {
  const r = await db.query<FieldRow>(
    `SELECT ${FIELD_COLUMNS}, a.country AS archive_country
       FROM archive_fields af JOIN fields f ON f.id = af.field_id JOIN archives a ON a.id = af.archive_id
      WHERE af.archive_id = $1 ORDER BY af.position, f.id`,
    [archiveId],
  );
  return r.rows;
}

export async function fieldById(db: Queryable, dbId: number, fieldId: number): Promise<FieldRow | undefined> {
  const r = await db.query<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM fields f WHERE f.id = $1 AND f.database_id = $2`, [fieldId, dbId]);
  return r.rows[0];
}

export function fieldToWire(f: FieldRow): Field {
  const ec = f.extended_config ?? {};
  return {
    ID: f.id,
    Name: f.name,
    Type: f.type,
    Size: f.size,
    Mask: f.mask,
    RegEx: f.regex,
    Prop: f.prop,
    List: f.list_id,
    ListF1: f.list_f1,
    ListF2: f.list_f2,
    Parent: f.parent_id,
    MultiValue: isMulti(f),
    // Only for fields read with their archive: the money its 'C' masks show.
    ...(f.archive_country !== undefined ? { Currency: currencyForCountry(f.archive_country) } : {}),
    ExtendedConfig: {
      LiveField: Boolean(ec.liveField),
      UseRegExValidation: Boolean(ec.useRegExValidation),
      // Bounds of number and decimal fields (src/fields/rules.ts fieldBounds); only when configured.
      ...(typeof ec.min === 'number' ? { Min: ec.min } : {}),
      ...(typeof ec.max === 'number' ? { Max: ec.max } : {}),
    },
  };
}

export interface SearchRow {
  id: number;
  name: string;
  hash: string;
  parent_id: number | null;
  props: number;
  settings: number;
  icon: string | null;
  archives: number[];
  allowed: boolean;
}

/**
 * Searches of a database with their archives and whether the user passes the search's own
 * permissions: none set, everyone; grantAll (the console spec §3), everyone, also users and groups
 * made after it was saved; else a run right (1) of the user or of one of their groups.
 */
export async function searchesOf(db: Queryable, dbId: number, userId: number, searchId?: number): Promise<SearchRow[]> {
  const r = await db.query<SearchRow>(
    `SELECT s.id, s.name, s.hash, s.parent_id, s.props, s.settings, s.icon,
            ARRAY(SELECT sa.archive_id FROM search_archives sa WHERE sa.search_id = s.id ORDER BY sa.position, sa.archive_id) AS archives,
            (s.grant_all OR NOT EXISTS (SELECT 1 FROM search_permissions p WHERE p.search_id = s.id)
             OR EXISTS (SELECT 1 FROM search_permissions p WHERE p.search_id = s.id AND (p.rights & 1) <> 0
                         AND (p.user_id = $2 OR p.group_id IN (SELECT group_id FROM group_members WHERE user_id = $2)))) AS allowed
       FROM searches s
      WHERE s.database_id = $1 AND ($3::int IS NULL OR s.id = $3)
      ORDER BY s.position, s.id`,
    [dbId, userId, searchId ?? null],
  );
  return r.rows.map((s) => ({ ...s, archives: (s.archives ?? []).map(Number) }));
}

export interface PromptRow {
  id: number;
  field_id: number | null;
  prompt: string;
  list_id: number | null;
  prop: number;
  type: number;
  val: string | null;
  mval: unknown;
  condition: string;
  f_type: number | null;
  f_prop: number | null;
  f_mask: string | null;
  f_list: number | null;
  f_multi: boolean | null;
  f_parent: number | null;
}

/** Older designer names map onto the five conditions of the wire. */
export function normaliseCondition(c: string): SearchCondition {
  if ((SEARCH_CONDITIONS as readonly string[]).includes(c)) return c as SearchCondition;
  if (/^(between|range|greaterthan|greaterthanorequal|lessthan|lessthanorequal)$/i.test(c)) return 'Range';
  if (/^contains$/i.test(c)) return 'Contains';
  if (/^isempty$/i.test(c)) return 'IsEmpty';
  if (/^isnotempty$/i.test(c)) return 'IsNotEmpty';
  return 'Equals';
}

export interface Prompt {
  id: number;
  fieldId: number;
  prompt: string;
  /** 0 = content search text. */
  type: number;
  condition: SearchCondition;
  multi: boolean;
  defaultVal: string | null;
  defaultMval: string[] | null;
  wire: SearchPrompt;
}

export async function promptsOf(db: Queryable, searchId: number): Promise<Prompt[]> {
  const r = await db.query<PromptRow>(
    `SELECT i.id, i.field_id, i.prompt, i.list_id, i.prop, i.type, i.val, i.mval, i.condition,
            f.type AS f_type, f.prop AS f_prop, f.mask AS f_mask, f.list_id AS f_list, f.multi_value AS f_multi, f.parent_id AS f_parent
       FROM search_items i LEFT JOIN fields f ON f.id = i.field_id
      WHERE i.search_id = $1 ORDER BY i.position, i.id`,
    [searchId],
  );
  return r.rows.map((i) => {
    const content = i.field_id === null;
    const type = content ? 0 : (i.f_type ?? i.type);
    const condition = content ? 'Contains' : normaliseCondition(i.condition);
    const mval = Array.isArray(i.mval) ? i.mval.map((v) => (v === null || v === undefined ? '' : String(v))) : null;
    const prop = content ? i.prop : (i.f_prop ?? i.prop);
    const multi = !content && isMulti({ multi_value: i.f_multi ?? false, parent_id: i.f_parent, prop });
    return {
      id: i.id,
      fieldId: i.field_id ?? 0,
      prompt: i.prompt,
      type,
      condition,
      multi,
      defaultVal: i.val,
      defaultMval: mval,
      wire: {
        ID: i.id,
        FID: i.field_id ?? 0,
        Prompt: i.prompt,
        ListID: i.list_id ?? i.f_list ?? null,
        Prop: prop,
        Type: type,
        Mask: content ? null : i.f_mask,
        Condition: condition,
        VAL: i.val,
        MVAL: mval,
      },
    };
  });
}

export interface TabRow {
  id: number;
  label: string;
  color: string | null;
  value: string | null;
}

export async function tabsOf(db: Queryable, searchId: number): Promise<TabRow[]> {
  const r = await db.query<TabRow>('SELECT id, label, color, value FROM search_view_tabs WHERE search_id = $1 ORDER BY position, id', [searchId]);
  return r.rows;
}
