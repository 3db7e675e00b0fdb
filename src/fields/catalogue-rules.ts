/**
 * The field catalogue's rules (the console spec §3 Field, Table field, List; §4; §5; §9), pure, for
 * the console's editors and the server that enforces them (server/services/catalogue.ts).
 *
 * - Types: CHARACTER, NUMBER (NUMERIC is the same), DATE, DECIMAL; stored as 1-4 (src/api/archives.ts FIELD_TYPES).
 * - System fields: one of readOnly, indexedBy, dateEntered, lastModified, pageCount, fileType, kept
 *   as the field's Prop bit; all but readOnly force multi-value and required off.
 * - RegEx: the custom message is a leading comment, `(?#message)pattern` (regex.ts composes, splits
 *   and checks it; the user app shows the message when a value does not match); changing the data
 *   type clears the RegEx settings.
 * - Lists: empty values are dropped on save; an assembly-bound list (a path, optionally prefixed
 *   [SQL] or [MONGODB]) needs a path and parameters.
 * - Dynamic list fields depend on their primary/secondary fields: adding one without them, or
 *   removing one they need, warns (DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD / DYNAMIC_LIST_FIELD_REQUIRED_BY).
 */
import { FIELD_PROPS, FIELD_TYPES, TEXT_COMPLETE_MAX } from '../api/archives';
import { regexProblem, type RegexProblem } from './regex';
import { longestValue } from './rules';

/** the console spec §9. */
export const DEFAULT_FIELD_LENGTH = 50;
export const MAX_FIELD_LENGTH = 4000;

export const FIELD_TYPE_NAMES = ['CHARACTER', 'NUMBER', 'DATE', 'DECIMAL'] as const;
export type FieldTypeName = (typeof FIELD_TYPE_NAMES)[number];
/** What the wire accepts: NUMERIC is another spelling of NUMBER. */
export const FIELD_TYPE_INPUTS = [...FIELD_TYPE_NAMES, 'NUMERIC'] as const;

const TYPE_CODES: Record<string, number> = {
  CHARACTER: FIELD_TYPES.character,
  NUMBER: FIELD_TYPES.number,
  NUMERIC: FIELD_TYPES.number,
  DATE: FIELD_TYPES.date,
  DECIMAL: FIELD_TYPES.decimal,
};

/** 'numeric', 'Number' ... -> its code (1-4); undefined for anything else. */
export function fieldTypeCode(name: string): number | undefined {
  return TYPE_CODES[name.trim().toUpperCase()];
}

export function fieldTypeName(code: number): FieldTypeName {
  return FIELD_TYPE_NAMES[code - 1] ?? 'CHARACTER';
}

/** NUMERIC -> NUMBER; anything unknown -> CHARACTER. */
export const normaliseFieldType = (name: string): FieldTypeName => fieldTypeName(fieldTypeCode(name) ?? FIELD_TYPES.character);

export const SYSTEM_FIELDS = ['readOnly', 'indexedBy', 'dateEntered', 'lastModified', 'pageCount', 'fileType'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number] | '';

export const SYSTEM_FIELD_PROPS: Record<Exclude<SystemField, ''>, number> = {
  readOnly: FIELD_PROPS.readOnly,
  indexedBy: FIELD_PROPS.indexedBy,
  dateEntered: FIELD_PROPS.dateEntered,
  lastModified: FIELD_PROPS.lastModifiedBy,
  pageCount: FIELD_PROPS.pageCount,
  fileType: FIELD_PROPS.fileType,
};
const SYSTEM_MASK = Object.values(SYSTEM_FIELD_PROPS).reduce((a, b) => a | b, 0);

/** The system field a Prop names ('' for none; the first in SYSTEM_FIELDS order if several bits are set). */
export function systemFieldOf(prop: number): SystemField {
  return SYSTEM_FIELDS.find((s) => (prop & SYSTEM_FIELD_PROPS[s]) !== 0) ?? '';
}

/** Prop with its system-field bits replaced by `system`'s. */
export function withSystemField(prop: number, system: SystemField): number {
  return (prop & ~SYSTEM_MASK) | (system ? SYSTEM_FIELD_PROPS[system] : 0);
}

/** System fields other than readOnly are filled by the server: never multi-value, never required. */
export const forcesPlainField = (system: SystemField): boolean => system !== '' && system !== 'readOnly';

/** The flags after the system-field rule. */
export function applySystemFieldRule<T extends { systemField: SystemField; multiValue: boolean; required: boolean }>(f: T): T {
  return forcesPlainField(f.systemField) ? { ...f, multiValue: false, required: false } : f;
}

/** Why a field of this type (code) and length cannot keep this RegEx (null: it can); the console's draft and the server's save ask the same. */
export const fieldRegexProblem = (regex: string, type: number, length: number): RegexProblem | null =>
  regexProblem(regex, longestValue({ Type: type, Size: length }));

/** Changing the type (code or name) of a saved field or its multi-value flag asks CONFIRM_FIELDTYPE_CHANGE. */
export function needsTypeChangeConfirm(saved: { type: string; multiValue: boolean } | null, draft: { type: string; multiValue: boolean }): boolean {
  if (!saved) return false;
  return normaliseFieldType(saved.type) !== normaliseFieldType(draft.type) || saved.multiValue !== draft.multiValue;
}

export interface RegexSettings {
  regex: string;
  useRegExValidation: boolean;
}

/**
 * The RegEx settings to store when a field's data type goes from `before` to `after`: a changed
 * type clears the saved ones (a pattern for text rarely fits a number or date); a RegEx given in
 * the same change that differs from the saved one is a new setting and stays.
 */
export function regexAfterTypeChange(beforeType: number, afterType: number, saved: RegexSettings, sent: RegexSettings): RegexSettings {
  if (beforeType === afterType) return sent;
  if (sent.regex !== '' && sent.regex !== saved.regex) return sent;
  return { regex: '', useRegExValidation: false };
}

/** Empty values are dropped on save (the console spec §5); the rest are kept trimmed, in order. */
export function cleanListValues(values: readonly string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v !== '');
}

export const ASSEMBLY_PREFIXES = ['SQL', 'MONGODB'] as const;
export type AssemblyPrefix = (typeof ASSEMBLY_PREFIXES)[number] | '';

/** '[SQL]Server=...;' -> { prefix: 'SQL', path: 'Server=...;' } (prefix case-insensitive). */
export function splitAssemblyPath(assemblyPath: string | null | undefined): { prefix: AssemblyPrefix; path: string } {
  const raw = (assemblyPath ?? '').trim();
  const m = /^\[(SQL|MONGODB)\]\s*/i.exec(raw);
  return m ? { prefix: m[1]!.toUpperCase() as AssemblyPrefix, path: raw.slice(m[0].length).trim() } : { prefix: '', path: raw };
}

export function composeAssemblyPath(prefix: AssemblyPrefix, path: string): string {
  const p = path.trim();
  if (!p && !prefix) return '';
  return prefix ? `[${prefix}]${p}` : p;
}

export const isAssemblyBound = (l: { assemblyPath?: string | null; assemblyParameters?: string | null }): boolean =>
  (l.assemblyPath ?? '').trim() !== '' || (l.assemblyParameters ?? '').trim() !== '';

export type AssemblyProblem = 'CATALOGUE_ASSEMBLY_PATH_REQUIRED' | 'CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED';

/** An assembly-bound list needs a path (after its prefix) and parameters (the console spec §5). */
export function assemblyProblem(l: { assemblyPath?: string | null; assemblyParameters?: string | null }): AssemblyProblem | null {
  if (!isAssemblyBound(l)) return null;
  if (splitAssemblyPath(l.assemblyPath).path === '') return 'CATALOGUE_ASSEMBLY_PATH_REQUIRED';
  if ((l.assemblyParameters ?? '').trim() === '') return 'CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED';
  return null;
}

/** What the dependency warnings read of a field. */
export interface DependencyField {
  id: number;
  name: string;
  /** A dynamic list field's primary and secondary fields (null: none). */
  dynamic?: { primary: number | null; secondary: number | null } | null;
}

export type DependencyWarning =
  | { key: 'DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD'; field: string; other: string }
  | { key: 'DYNAMIC_LIST_FIELD_REQUIRED_BY'; field: string; other: string };

const dependsOn = (f: DependencyField): number[] => [f.dynamic?.primary, f.dynamic?.secondary].filter((x): x is number => typeof x === 'number' && x > 0);

/**
 * Warnings for a change of a set of fields (an archive's fields, a table field's columns): a
 * dynamic list field added without a field it depends on, and a field removed that a remaining
 * dynamic list field requires. Warnings, not refusals: the admin may add the other field next.
 */
export function dynamicListWarnings(before: readonly number[], after: readonly number[], catalogue: readonly DependencyField[]): DependencyWarning[] {
  const byId = new Map(catalogue.map((f) => [f.id, f]));
  const name = (id: number) => byId.get(id)?.name ?? `#${id}`;
  const had = new Set(before);
  const has = new Set(after);
  const out: DependencyWarning[] = [];
  for (const id of after) {
    if (had.has(id)) continue;
    const f = byId.get(id);
    if (!f) continue;
    for (const dep of dependsOn(f)) if (!has.has(dep)) out.push({ key: 'DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD', field: f.name, other: name(dep) });
  }
  for (const id of before) {
    if (has.has(id)) continue;
    for (const other of after) {
      const f = byId.get(other);
      if (f && dependsOn(f).includes(id)) out.push({ key: 'DYNAMIC_LIST_FIELD_REQUIRED_BY', field: name(id), other: f.name });
    }
  }
  return out;
}

/** Fields of a saved table field that a draft no longer has (each asks REMOVE_FIELD_FROM_TABLEFIELD_MSG). */
export function removedFromTableField(saved: readonly number[] | null, draft: readonly number[]): number[] {
  if (!saved) return [];
  const keep = new Set(draft);
  return saved.filter((id) => !keep.has(id));
}

/** the console spec §9: autocomplete lists show at most 100 items (filter with lists.ts filterItems). */
export const AUTOCOMPLETE_MAX = TEXT_COMPLETE_MAX;
