/**
 * The field editor's draft: the wire field (camelCase) in the shape the form edits (the RegEx as a
 * message and a pattern, the list binding flattened), and back. Pure; unit-tested.
 */
import type { ListBindingType } from '../../../../api/admin-catalogue';
import {
  DEFAULT_FIELD_LENGTH,
  applySystemFieldRule,
  fieldRegexProblem,
  fieldTypeCode,
  normaliseFieldType,
  type DependencyField,
  type FieldTypeName,
  type SystemField,
} from '../../../../fields/catalogue-rules';
import { composeRegex, splitRegex } from '../../../../fields/regex';
import type { ConsoleField, FieldDraftWire } from '../../api/catalogue';

export interface LiveFieldDraft {
  method: string;
  url: string;
  headers: string;
  jsonPath: string;
  script: string;
  body: string;
}

export interface MappingDraft {
  listId: number | null;
  primaryValue: string;
  secondaryValue: string;
}

export interface FieldDraft {
  name: string;
  type: FieldTypeName;
  format: string;
  length: number;
  multiValue: boolean;
  required: boolean;
  systemField: SystemField;
  regexMessage: string;
  regexPattern: string;
  useRegExValidation: boolean;
  live: boolean;
  liveField: LiveFieldDraft;
  listType: ListBindingType | '';
  listId: number | null;
  primary: number | null;
  secondary: number | null;
  mapping: MappingDraft[];
}

const NO_LIVE: LiveFieldDraft = { method: 'GET', url: '', headers: '', jsonPath: '', script: '', body: '' };

export function fieldToDraft(f: ConsoleField | null): FieldDraft {
  if (!f) {
    return {
      name: '',
      type: 'CHARACTER',
      format: '',
      length: DEFAULT_FIELD_LENGTH,
      multiValue: false,
      required: false,
      systemField: '',
      regexMessage: '',
      regexPattern: '',
      useRegExValidation: false,
      live: false,
      liveField: { ...NO_LIVE },
      listType: '',
      listId: null,
      primary: null,
      secondary: null,
      mapping: [],
    };
  }
  const { message, pattern } = splitRegex(f.regex);
  const live = f.extendedConfig.liveField;
  return {
    name: f.name,
    type: normaliseFieldType(f.type),
    format: f.format,
    length: f.length,
    multiValue: f.multiValue,
    required: f.required,
    systemField: f.systemField,
    regexMessage: message,
    regexPattern: pattern,
    useRegExValidation: f.extendedConfig.useRegExValidation,
    live: live !== null,
    liveField: live ? { ...live } : { ...NO_LIVE },
    listType: f.list?.type ?? '',
    listId: f.list?.listId ?? null,
    primary: f.list?.primary ?? null,
    secondary: f.list?.secondary ?? null,
    mapping: (f.list?.mapping ?? []).map((m) => ({ listId: m.listId, primaryValue: m.primaryValue, secondaryValue: m.secondaryValue ?? '' })),
  };
}

/** A change of type clears the RegEx settings (the console spec §4); the system-field rule is applied on every change. */
export function changeDraft(d: FieldDraft, patch: Partial<FieldDraft>): FieldDraft {
  let next = { ...d, ...patch };
  if (patch.type !== undefined && patch.type !== d.type) next = { ...next, regexMessage: '', regexPattern: '', useRegExValidation: false };
  return applySystemFieldRule(next);
}

export function draftToWire(d: FieldDraft): FieldDraftWire {
  const mapping = d.mapping.filter((m) => m.listId !== null && m.primaryValue.trim() !== '');
  return {
    name: d.name.trim(),
    type: d.type,
    format: d.format.trim(),
    length: d.length,
    multiValue: d.multiValue,
    required: d.required,
    systemField: d.systemField,
    regex: composeRegex(d.regexMessage, d.regexPattern),
    extendedConfig: { useRegExValidation: d.useRegExValidation, liveField: d.live ? { ...d.liveField } : null },
    list:
      d.listType === ''
        ? null
        : {
            type: d.listType,
            listId: d.listType === 'dynamic' && mapping.length > 0 ? null : d.listId,
            primary: d.listType === 'dynamic' ? d.primary : null,
            secondary: d.listType === 'dynamic' ? d.secondary : null,
            mapping: d.listType === 'dynamic' ? mapping.map((m) => ({ listId: m.listId!, primaryValue: m.primaryValue.trim(), secondaryValue: m.secondaryValue.trim() })) : [],
          },
  };
}

/** Why the draft's RegEx cannot be saved (a key; null: it can), shown beside the pattern as it is typed. */
export const draftRegexProblem = (d: FieldDraft): string | null =>
  fieldRegexProblem(composeRegex(d.regexMessage, d.regexPattern), fieldTypeCode(d.type) ?? 1, d.length);

/** What keeps the draft from being saved (a key), checked before the server checks the same. */
export function fieldDraftProblem(d: FieldDraft, listKinds: ReadonlyMap<number, number>): string | null {
  if (!d.name.trim()) return 'CATALOGUE_NAME_REQUIRED';
  if (!(d.length >= 1 && d.length <= 4000)) return 'CATALOGUE_FIELD_LENGTH_INVALID';
  const regex = draftRegexProblem(d);
  if (regex) return regex;
  if (d.listType === 'dropdown' || d.listType === 'typeahead') return d.listId === null ? 'CATALOGUE_LIST_REQUIRED' : null;
  if (d.listType === 'dynamic') {
    if (d.primary === null) return 'CATALOGUE_DYNAMIC_PRIMARY_REQUIRED';
    const mapped = d.mapping.some((m) => m.listId !== null && m.primaryValue.trim() !== '');
    // A dynamic list whose own rows carry the filters (kind 2) needs no mapping.
    if (!mapped && !(d.listId !== null && listKinds.get(d.listId) === 2)) return 'CATALOGUE_DYNAMIC_MAPPING_REQUIRED';
  }
  return null;
}

/**
 * What the dynamic-list warnings (catalogue-rules.ts dynamicListWarnings) need of the catalogue's
 * fields; also for the archive editor's fields (DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD / _REQUIRED_BY).
 */
export const dependencyFields = (fields: readonly ConsoleField[]): DependencyField[] =>
  fields.map((f) => ({ id: f.id, name: f.name, dynamic: f.list?.type === 'dynamic' ? { primary: f.list.primary, secondary: f.list.secondary } : null }));
