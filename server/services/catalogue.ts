/**
 * The field catalogue of a database (src/api/admin-catalogue.ts has the calls and the rules):
 * fields (table fields' columns included), table fields and lists, read and written for the
 * administration console. Stored in the tables of migration 001:
 * - fields: type 1-4, size (Length), mask (Format), regex, prop (required 2, multi-value 32,
 *   dropdown 64, dynamic 128, system-field bits), multi_value, list_id / list_f1 / list_f2,
 *   parent_id (the table field), extended_config { useRegExValidation, liveField, listMapping,
 *   dynamicListOwned, min, max }.
 * - A dynamic list field with a Mapping gets a dynamic list (kind 2) of its own, rebuilt from the
 *   mapping on every save of the field and of a list it maps: a row (value, filter1, filter2) per
 *   value of each mapped list. So the user app's dynamic-list calls (GET api/indexes, the field
 *   check) read it as they read any dynamic list.
 * Every write raises the data version (migration 007) in its transaction.
 */
import {
  CATALOGUE_ERROR_KEYS,
  LIST_KINDS,
  LIST_SETTINGS_KEY,
  type CatalogueErrorKey,
  type CatalogueField,
  type CatalogueList,
  type FieldEdit,
  type FieldListBinding,
  type ListEdit,
  type ListTest,
  type TableField,
  type TableFieldEdit,
} from '../../src/api/admin-catalogue.js';
import { FIELD_PROPS } from '../../src/api/archives.js';
import {
  DEFAULT_FIELD_LENGTH,
  MAX_FIELD_LENGTH,
  assemblyProblem,
  cleanListValues,
  composeAssemblyPath,
  fieldTypeCode,
  fieldTypeName,
  forcesPlainField,
  isAssemblyBound,
  fieldRegexProblem,
  regexAfterTypeChange,
  splitAssemblyPath,
  systemFieldOf,
  withSystemField,
} from '../../src/fields/catalogue-rules.js';
import { listKindOf } from '../../src/fields/lists.js';
import type { Queryable, Store } from '../db/store.js';
import type { FieldRow } from '../search/model.js';
import { ApiError, Errors } from '../http/errors.js';
import { prepareFieldSearch } from '../search/field-counts.js';

const MESSAGES: Record<CatalogueErrorKey, string> = {
  CATALOGUE_NAME_REQUIRED: 'A name is required',
  CATALOGUE_NAME_EXISTS: 'Another item of this database already has this name',
  CATALOGUE_FIELD_LENGTH_INVALID: `The length must be between 1 and ${MAX_FIELD_LENGTH}`,
  CATALOGUE_REGEX_INVALID: 'The regular expression cannot be used',
  CATALOGUE_REGEX_UNSUPPORTED: "The regular expression uses backreferences or lookaround, or is too large for the field's length",
  CATALOGUE_LIST_REQUIRED: 'Choose the list of this field',
  CATALOGUE_DYNAMIC_PRIMARY_REQUIRED: 'A dynamic list needs the field it depends on',
  CATALOGUE_DYNAMIC_MAPPING_REQUIRED: 'A dynamic list needs at least one mapping',
  CATALOGUE_FIELD_IN_USE: 'The field is in use',
  CATALOGUE_LIST_IN_USE: 'The list is in use',
  CATALOGUE_TABLE_FIELD_INVALID: 'This field cannot be a column of this table field',
  CATALOGUE_ASSEMBLY_PATH_REQUIRED: 'An assembly-bound list needs a path',
  CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED: 'An assembly-bound list needs parameters',
  CATALOGUE_ASSEMBLY_DISABLED: 'Assembly-bound lists are disabled on this server',
  CATALOGUE_ASSEMBLY_NOT_RUN: 'This server cannot run list assemblies; the list was not run',
};
void CATALOGUE_ERROR_KEYS;

const refuse = (key: CatalogueErrorKey, detail?: string, status = 400) => new ApiError(status, detail ? `${MESSAGES[key]}: ${detail}` : MESSAGES[key], key);

async function bumpVersion(tx: Queryable): Promise<void> {
  await tx.query('UPDATE data_version SET version = version + 1');
}

// --- fields ----------------------------------------------------------------------------------

/** A field row with the archives that have it. */
interface FieldRecord extends FieldRow {
  archives: number[] | null;
}

interface StoredMapping {
  listId: number;
  primaryValue: string;
  secondaryValue?: string;
}

const FIELD_SELECT = `SELECT f.id, f.name, f.type, f.size, f.mask, f.regex, f.prop, f.list_id, f.list_f1, f.list_f2, f.parent_id,
        f.multi_value, f.extended_config,
        ARRAY(SELECT af.archive_id FROM archive_fields af WHERE af.field_id = f.id ORDER BY af.archive_id) AS archives
   FROM fields f`;

const mappingOf = (ec: Record<string, unknown> | null): StoredMapping[] => (Array.isArray(ec?.listMapping) ? (ec.listMapping as StoredMapping[]) : []);

function fieldWire(r: FieldRecord): CatalogueField {
  const ec = r.extended_config ?? {};
  const kind = listKindOf({ List: r.list_id, Prop: r.prop });
  const live = ec.liveField && typeof ec.liveField === 'object' ? (ec.liveField as Record<string, unknown>) : null;
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  const list: FieldListBinding | null = kind
    ? {
        Type: kind === 'fixed' ? 'dropdown' : kind,
        ListId: r.list_id,
        Primary: kind === 'dynamic' ? r.list_f1 : null,
        Secondary: kind === 'dynamic' ? r.list_f2 : null,
        Mapping: mappingOf(ec).map((m) => ({ ListId: m.listId, PrimaryValue: m.primaryValue, SecondaryValue: m.secondaryValue ?? '' })),
      }
    : null;
  return {
    Id: r.id,
    Name: r.name,
    Type: fieldTypeName(r.type),
    Format: r.mask ?? '',
    Length: r.size,
    MultiValue: r.multi_value || (r.prop & FIELD_PROPS.multiValue) !== 0,
    Required: (r.prop & FIELD_PROPS.required) !== 0,
    SystemField: systemFieldOf(r.prop),
    Regex: r.regex ?? '',
    ExtendedConfig: {
      UseRegExValidation: Boolean(ec.useRegExValidation),
      LiveField: live ? { Method: s(live.method), Url: s(live.url), Headers: s(live.headers), JsonPath: s(live.jsonPath), Script: s(live.script), Body: s(live.body) } : null,
    },
    List: list,
    TableField: r.parent_id,
    Archives: (r.archives ?? []).map(Number),
  };
}

export async function listFields(db: Queryable, dbId: number): Promise<CatalogueField[]> {
  const r = await db.query<FieldRecord>(`${FIELD_SELECT} WHERE f.database_id = $1 ORDER BY lower(f.name), f.id`, [dbId]);
  return r.rows.map(fieldWire);
}

async function fieldRecord(db: Queryable, dbId: number, id: number): Promise<FieldRecord> {
  const r = await db.query<FieldRecord>(`${FIELD_SELECT} WHERE f.database_id = $1 AND f.id = $2`, [dbId, id]);
  const row = r.rows[0];
  if (!row) throw Errors.notFound(`Field ${id} does not exist`);
  return row;
}

export async function getField(db: Queryable, dbId: number, id: number): Promise<CatalogueField> {
  return fieldWire(await fieldRecord(db, dbId, id));
}

async function requireUniqueName(db: Queryable, table: 'fields' | 'lists' | 'table_fields', dbId: number, name: string, id: number | null): Promise<string> {
  const n = name.trim();
  if (!n) throw refuse('CATALOGUE_NAME_REQUIRED');
  const r = await db.query(`SELECT 1 FROM ${table} WHERE database_id = $1 AND lower(name) = lower($2) AND ($3::int IS NULL OR id <> $3)`, [dbId, n, id]);
  if (r.rowCount > 0) throw refuse('CATALOGUE_NAME_EXISTS', n, 409);
  return n;
}

async function requireIds(db: Queryable, table: 'fields' | 'lists', dbId: number, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return;
  const r = await db.query<{ id: number }>(`SELECT id FROM ${table} WHERE database_id = $1 AND id IN (SELECT (jsonb_array_elements_text($2::jsonb))::int)`, [dbId, JSON.stringify(wanted)]);
  if (r.rowCount !== wanted.length) throw Errors.badRequest(`Unknown ${table === 'fields' ? 'field' : 'list'} in this database`);
}

/** The field's own dynamic list rebuilt from its mapping: a row per value of each mapped list. */
async function rebuildDynamicList(tx: Queryable, listId: number, mapping: readonly StoredMapping[]): Promise<void> {
  await tx.query('DELETE FROM dynamic_list_rows WHERE list_id = $1', [listId]);
  for (const m of mapping) {
    await tx.query(
      `INSERT INTO dynamic_list_rows (list_id, value, filter1, filter2)
       SELECT $1, value, $3, $4 FROM list_values WHERE list_id = $2 ORDER BY position`,
      [listId, m.listId, m.primaryValue, m.secondaryValue ? m.secondaryValue : null],
    );
  }
}

/** Dynamic lists of fields that map list `listId`, rebuilt after the list changed. */
async function rebuildMappingsOf(tx: Queryable, dbId: number, listId: number): Promise<void> {
  const r = await tx.query<{ list_id: number; extended_config: Record<string, unknown> }>(
    `SELECT list_id, extended_config FROM fields WHERE database_id = $1 AND list_id IS NOT NULL AND (extended_config->>'dynamicListOwned')::boolean IS TRUE`,
    [dbId],
  );
  for (const f of r.rows) {
    const mapping = mappingOf(f.extended_config);
    if (mapping.some((m) => m.listId === listId)) await rebuildDynamicList(tx, f.list_id, mapping);
  }
}

interface ListBindingPlan {
  prop: number;
  listId: number | null;
  f1: number | null;
  f2: number | null;
  mapping: StoredMapping[];
  /** A dynamic list of the field's own to make (or keep) and fill from the mapping. */
  owned: boolean;
}

async function planListBinding(db: Queryable, dbId: number, fieldId: number | null, b: FieldListBinding | null | undefined): Promise<ListBindingPlan> {
  const none: ListBindingPlan = { prop: 0, listId: null, f1: null, f2: null, mapping: [], owned: false };
  if (!b) return none;
  if (b.Type !== 'dynamic') {
    if (b.ListId === null) throw refuse('CATALOGUE_LIST_REQUIRED');
    await requireIds(db, 'lists', dbId, [b.ListId]);
    return { ...none, prop: b.Type === 'dropdown' ? FIELD_PROPS.dropdownList : 0, listId: b.ListId };
  }
  if (b.Primary === null) throw refuse('CATALOGUE_DYNAMIC_PRIMARY_REQUIRED');
  const parents = [b.Primary, ...(b.Secondary === null ? [] : [b.Secondary])];
  if (fieldId !== null && parents.includes(fieldId)) throw Errors.badRequest('A dynamic list cannot depend on its own field');
  await requireIds(db, 'fields', dbId, parents);
  const mapping = b.Mapping.filter((m) => m.PrimaryValue.trim() !== '').map((m) => ({
    listId: m.ListId,
    primaryValue: m.PrimaryValue.trim(),
    ...(m.SecondaryValue?.trim() ? { secondaryValue: m.SecondaryValue.trim() } : {}),
  }));
  const base = { prop: FIELD_PROPS.dynamicDropdown, f1: b.Primary, f2: b.Secondary };
  if (mapping.length === 0) {
    // A dynamic list whose rows carry the filters themselves (the seed's Cities) needs no mapping.
    const kind = b.ListId === null ? undefined : (await db.query<{ kind: number }>('SELECT kind FROM lists WHERE id = $1 AND database_id = $2', [b.ListId, dbId])).rows[0]?.kind;
    if (kind !== LIST_KINDS.dynamic) throw refuse('CATALOGUE_DYNAMIC_MAPPING_REQUIRED');
    return { ...none, ...base, listId: b.ListId };
  }
  await requireIds(
    db,
    'lists',
    dbId,
    mapping.map((m) => m.listId),
  );
  return { ...none, ...base, listId: null, mapping, owned: true };
}

export async function saveField(store: Store, dbId: number, id: number | null, edit: FieldEdit): Promise<CatalogueField> {
  const savedId = await store.transaction(async (tx) => {
    const saved = id === null ? null : await fieldRecord(tx, dbId, id);
    const name = await requireUniqueName(tx, 'fields', dbId, edit.Name, id);
    const type = fieldTypeCode(edit.Type)!;
    const length = edit.Length === undefined || edit.Length === 0 ? (saved?.size ?? DEFAULT_FIELD_LENGTH) : edit.Length;
    if (length < 1 || length > MAX_FIELD_LENGTH) throw refuse('CATALOGUE_FIELD_LENGTH_INVALID');
    const system = edit.SystemField ?? '';
    const plain = forcesPlainField(system);
    const multi = plain ? false : (edit.MultiValue ?? false);
    const required = plain ? false : (edit.Required ?? false);
    const savedEc = saved?.extended_config ?? {};
    const sentRegex = { regex: (edit.Regex ?? '').trim(), useRegExValidation: edit.ExtendedConfig?.UseRegExValidation ?? false };
    const regex = saved
      ? regexAfterTypeChange(saved.type, type, { regex: saved.regex ?? '', useRegExValidation: Boolean(savedEc.useRegExValidation) }, sentRegex)
      : sentRegex;
    const regexRefused = fieldRegexProblem(regex.regex, type, length);
    if (regexRefused) throw refuse(regexRefused);
    const plan = await planListBinding(tx, dbId, id, edit.List);

    const keptBits = (saved?.prop ?? 0) & ~(FIELD_PROPS.required | FIELD_PROPS.multiValue | FIELD_PROPS.dropdownList | FIELD_PROPS.dynamicDropdown);
    const prop = withSystemField(keptBits, system) | (required ? FIELD_PROPS.required : 0) | (multi ? FIELD_PROPS.multiValue : 0) | plan.prop;

    const live = edit.ExtendedConfig?.LiveField === undefined ? savedEc.liveField : edit.ExtendedConfig.LiveField;
    const ownedBefore = savedEc.dynamicListOwned === true && saved?.list_id ? saved.list_id : null;
    let listId = plan.listId;
    if (plan.owned) {
      listId = ownedBefore;
      if (listId === null) {
        const r = await tx.query<{ id: number }>('INSERT INTO lists (database_id, name, kind) VALUES ($1, $2, $3) RETURNING id', [dbId, `${name} (dynamic)`, LIST_KINDS.dynamic]);
        listId = r.rows[0]!.id;
      } else {
        await tx.query('UPDATE lists SET name = $2 WHERE id = $1', [listId, `${name} (dynamic)`]);
      }
    }
    const { liveField: _l, listMapping: _m, dynamicListOwned: _o, useRegExValidation: _u, ...otherEc } = savedEc;
    const ec = {
      ...otherEc,
      useRegExValidation: regex.useRegExValidation,
      ...(live ? { liveField: lowerLive(live) } : {}),
      ...(plan.owned ? { listMapping: plan.mapping, dynamicListOwned: true } : {}),
    };
    const values = [name, type, length, edit.Format?.trim() || null, regex.regex || null, prop, listId, plan.f1, plan.f2, multi, JSON.stringify(ec)];
    let fieldId: number;
    if (saved) {
      await tx.query(
        `UPDATE fields SET name = $1, type = $2, size = $3, mask = $4, regex = $5, prop = $6, list_id = $7, list_f1 = $8, list_f2 = $9,
                multi_value = $10, extended_config = $11::jsonb WHERE id = $12`,
        [...values, saved.id],
      );
      fieldId = saved.id;
    } else {
      const r = await tx.query<{ id: number }>(
        `INSERT INTO fields (name, type, size, mask, regex, prop, list_id, list_f1, list_f2, multi_value, extended_config, database_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12) RETURNING id`,
        [...values, dbId],
      );
      fieldId = r.rows[0]!.id;
    }
    if (plan.owned && listId !== null) await rebuildDynamicList(tx, listId, plan.mapping);
    // The field's own dynamic list is no longer used: it goes.
    if (ownedBefore !== null && ownedBefore !== listId) await tx.query('DELETE FROM lists WHERE id = $1', [ownedBefore]);
    await bumpVersion(tx);
    return fieldId;
  });
  // A field given a list is counted per value from now on (search/field-counts.ts).
  await prepareFieldSearch(store);
  return getField(store, dbId, savedId);
}

function lowerLive(l: unknown): Record<string, string> {
  if (!l || typeof l !== 'object') return {};
  const o = l as Record<string, unknown>;
  const pick = (a: string, b: string) => (typeof o[a] === 'string' ? (o[a] as string) : typeof o[b] === 'string' ? (o[b] as string) : '');
  return { method: pick('Method', 'method'), url: pick('Url', 'url'), headers: pick('Headers', 'headers'), jsonPath: pick('JsonPath', 'jsonPath'), script: pick('Script', 'script'), body: pick('Body', 'body') };
}

export async function deleteField(store: Store, dbId: number, id: number): Promise<void> {
  await store.transaction(async (tx) => {
    const f = await fieldRecord(tx, dbId, id);
    const archives = await tx.query<{ name: string }>('SELECT a.name FROM archive_fields af JOIN archives a ON a.id = af.archive_id WHERE af.field_id = $1 ORDER BY a.name', [id]);
    const dependents = await tx.query<{ name: string }>('SELECT name FROM fields WHERE database_id = $1 AND id <> $2 AND (list_f1 = $2 OR list_f2 = $2) ORDER BY name', [dbId, id]);
    const users = [...archives.rows.map((a) => a.name), ...dependents.rows.map((d) => d.name)];
    if (users.length) throw refuse('CATALOGUE_FIELD_IN_USE', users.join(', '), 409);
    await tx.query('DELETE FROM fields WHERE id = $1', [id]);
    if (f.extended_config?.dynamicListOwned === true && f.list_id !== null) await tx.query('DELETE FROM lists WHERE id = $1', [f.list_id]);
    await bumpVersion(tx);
  });
}

// --- table fields ----------------------------------------------------------------------------

export async function listTableFields(db: Queryable, dbId: number, id?: number): Promise<TableField[]> {
  const r = await db.query<{ id: number; name: string; fields: number[] | null }>(
    `SELECT t.id, t.name, ARRAY(SELECT f.id FROM fields f WHERE f.parent_id = t.id ORDER BY f.id) AS fields
       FROM table_fields t WHERE t.database_id = $1 AND ($2::int IS NULL OR t.id = $2) ORDER BY lower(t.name), t.id`,
    [dbId, id ?? null],
  );
  if (id !== undefined && r.rowCount === 0) throw Errors.notFound(`Table field ${id} does not exist`);
  return r.rows.map((t) => ({ Id: t.id, Name: t.name, Fields: (t.fields ?? []).map(Number) }));
}

const SYSTEM_BITS = FIELD_PROPS.indexedBy | FIELD_PROPS.dateEntered | FIELD_PROPS.lastModifiedBy | FIELD_PROPS.pageCount | FIELD_PROPS.fileType;

export async function saveTableField(store: Store, dbId: number, id: number | null, edit: TableFieldEdit): Promise<TableField> {
  const savedId = await store.transaction(async (tx) => {
    if (id !== null) await listTableFields(tx, dbId, id);
    const name = await requireUniqueName(tx, 'table_fields', dbId, edit.Name, id);
    const ids = [...new Set(edit.Fields)];
    await requireIds(tx, 'fields', dbId, ids);
    if (ids.length) {
      const bad = await tx.query<{ name: string }>(
        `SELECT name FROM fields WHERE id IN (SELECT (jsonb_array_elements_text($1::jsonb))::int)
            AND ((prop & $2) <> 0 OR (parent_id IS NOT NULL AND ($3::int IS NULL OR parent_id <> $3)))`,
        [JSON.stringify(ids), SYSTEM_BITS, id],
      );
      if (bad.rowCount) throw refuse('CATALOGUE_TABLE_FIELD_INVALID', bad.rows.map((b) => b.name).join(', '));
    }
    let tfId = id;
    if (tfId === null) tfId = (await tx.query<{ id: number }>('INSERT INTO table_fields (database_id, name) VALUES ($1, $2) RETURNING id', [dbId, name])).rows[0]!.id;
    else await tx.query('UPDATE table_fields SET name = $2 WHERE id = $1', [tfId, name]);
    await tx.query('UPDATE fields SET parent_id = NULL WHERE parent_id = $1 AND id NOT IN (SELECT (jsonb_array_elements_text($2::jsonb))::int)', [tfId, JSON.stringify(ids)]);
    await tx.query('UPDATE fields SET parent_id = $1 WHERE id IN (SELECT (jsonb_array_elements_text($2::jsonb))::int)', [tfId, JSON.stringify(ids)]);
    await bumpVersion(tx);
    return tfId;
  });
  return (await listTableFields(store, dbId, savedId))[0]!;
}

/** The table field goes; its columns stay as plain fields (not deleted with it by the cascade). */
export async function deleteTableField(store: Store, dbId: number, id: number): Promise<void> {
  await store.transaction(async (tx) => {
    await listTableFields(tx, dbId, id);
    await tx.query('UPDATE fields SET parent_id = NULL WHERE parent_id = $1', [id]);
    await tx.query('DELETE FROM table_fields WHERE id = $1', [id]);
    await bumpVersion(tx);
  });
}

// --- lists -----------------------------------------------------------------------------------

interface ListRecord {
  id: number;
  name: string;
  kind: number;
  assembly_path: string | null;
  assembly_parameters: unknown;
  values: string[] | null;
  fields: number[] | null;
}

const paramsText = (p: unknown): string => (p === null || p === undefined ? '' : typeof p === 'string' ? p : JSON.stringify(p));

export async function listLists(db: Queryable, dbId: number, id?: number): Promise<CatalogueList[]> {
  const r = await db.query<ListRecord>(
    `SELECT l.id, l.name, l.kind, l.assembly_path, l.assembly_parameters,
            ARRAY(SELECT v.value FROM list_values v WHERE v.list_id = l.id ORDER BY v.position) AS values,
            ARRAY(SELECT f.id FROM fields f WHERE f.list_id = l.id
                  OR (f.database_id = l.database_id AND f.extended_config->'listMapping' @> jsonb_build_array(jsonb_build_object('listId', l.id)))
                  ORDER BY f.id) AS fields
       FROM lists l WHERE l.database_id = $1 AND ($2::int IS NULL OR l.id = $2) ORDER BY lower(l.name), l.id`,
    [dbId, id ?? null],
  );
  if (id !== undefined && r.rowCount === 0) throw Errors.notFound(`List ${id} does not exist`);
  const out: CatalogueList[] = [];
  for (const l of r.rows) {
    const rows =
      l.kind === LIST_KINDS.dynamic
        ? (await db.query<{ value: string; filter1: string | null; filter2: string | null }>('SELECT value, filter1, filter2 FROM dynamic_list_rows WHERE list_id = $1 ORDER BY id LIMIT 1000', [l.id])).rows
        : undefined;
    out.push({
      Id: l.id,
      Name: l.name,
      Kind: l.kind,
      Values: l.values ?? [],
      ...(rows ? { Rows: rows.map((x) => ({ Value: x.value, Filter1: x.filter1, Filter2: x.filter2 })) } : {}),
      AssemblyPath: l.assembly_path ?? '',
      AssemblyParameters: paramsText(l.assembly_parameters),
      Fields: (l.fields ?? []).map(Number),
    });
  }
  return out;
}

async function assemblyDisabled(db: Queryable): Promise<boolean> {
  const r = await db.query<{ value: { assemblyDisabled?: unknown } | null }>('SELECT value FROM settings WHERE key = $1', [LIST_SETTINGS_KEY]);
  return r.rows[0]?.value?.assemblyDisabled === true;
}

/** The assembly rules of a list edit; answers the path to store ('' when not assembly-bound). */
async function checkAssembly(db: Queryable, edit: ListEdit): Promise<{ path: string; parameters: string }> {
  const l = { assemblyPath: edit.AssemblyPath ?? '', assemblyParameters: edit.AssemblyParameters ?? '' };
  if (!isAssemblyBound(l)) return { path: '', parameters: '' };
  if (await assemblyDisabled(db)) throw refuse('CATALOGUE_ASSEMBLY_DISABLED');
  const problem = assemblyProblem(l);
  if (problem) throw refuse(problem);
  const { prefix, path } = splitAssemblyPath(l.assemblyPath);
  return { path: composeAssemblyPath(prefix, path), parameters: l.assemblyParameters.trim() };
}

export async function saveList(store: Store, dbId: number, id: number | null, edit: ListEdit): Promise<CatalogueList> {
  const savedId = await store.transaction(async (tx) => {
    if (id !== null) await listLists(tx, dbId, id);
    const name = await requireUniqueName(tx, 'lists', dbId, edit.Name, id);
    const assembly = await checkAssembly(tx, edit);
    const values = cleanListValues(edit.Values);
    const params = [name, assembly.path || null, assembly.parameters ? JSON.stringify(assembly.parameters) : null];
    let listId = id;
    if (listId === null) {
      listId = (await tx.query<{ id: number }>('INSERT INTO lists (name, assembly_path, assembly_parameters, database_id, kind) VALUES ($1, $2, $3::jsonb, $4, 0) RETURNING id', [...params, dbId])).rows[0]!.id;
    } else {
      await tx.query('UPDATE lists SET name = $1, assembly_path = $2, assembly_parameters = $3::jsonb WHERE id = $4', [...params, listId]);
    }
    await tx.query('DELETE FROM list_values WHERE list_id = $1', [listId]);
    if (values.length) {
      await tx.query(
        `INSERT INTO list_values (list_id, position, value)
         SELECT $1, (t.o - 1)::int, t.v FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS t(v, o)`,
        [listId, JSON.stringify(values)],
      );
    }
    await rebuildMappingsOf(tx, dbId, listId);
    await bumpVersion(tx);
    return listId;
  });
  return (await listLists(store, dbId, savedId))[0]!;
}

export async function deleteList(store: Store, dbId: number, id: number): Promise<void> {
  await store.transaction(async (tx) => {
    const [list] = await listLists(tx, dbId, id);
    if (list!.Fields.length) {
      const names = await tx.query<{ name: string }>('SELECT name FROM fields WHERE id IN (SELECT (jsonb_array_elements_text($1::jsonb))::int) ORDER BY name', [JSON.stringify(list!.Fields)]);
      throw refuse('CATALOGUE_LIST_IN_USE', names.rows.map((n) => n.name).join(', '), 409);
    }
    await tx.query('DELETE FROM lists WHERE id = $1', [id]);
    await bumpVersion(tx);
  });
}

/** PUT .../lists/: the rules of an assembly-bound list are checked; the assembly itself cannot run here. */
export async function testList(db: Queryable, edit: ListEdit): Promise<ListTest> {
  const assembly = await checkAssembly(db, edit);
  if (!assembly.path) throw refuse('CATALOGUE_ASSEMBLY_PATH_REQUIRED');
  return { Ran: false, Key: 'CATALOGUE_ASSEMBLY_NOT_RUN', Values: cleanListValues(edit.Values) };
}
