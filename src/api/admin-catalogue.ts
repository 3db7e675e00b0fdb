/**
 * The field catalogue in the administration console (the console spec §2 FIELD_CATALOG, §3 Field,
 * Table field, List; §4; §5; §7), under admin/databases/{db} (adminConsolePaths.catalogue), every
 * call for an administrator of that database (403 otherwise):
 *   GET    .../fields                      -> CatalogueFieldList (table-field columns included)
 *   GET    .../fields/{id}                 -> CatalogueField
 *   POST   .../fields        FieldEdit     -> CatalogueField
 *   PUT    .../fields/{id}   FieldEdit     -> CatalogueField
 *   DELETE .../fields/{id}                 -> Deleted
 *   GET/POST/PUT/DELETE .../tablefields[/{id}]  TableFieldEdit -> TableField(List) | Deleted
 *   GET/POST/PUT/DELETE .../lists[/{id}]        ListEdit       -> CatalogueList(List) | Deleted
 *   PUT    .../lists/        ListEdit      -> ListTest (test of an assembly-bound list)
 * The user app reads a list's values with GET dbs/{db}/lists/{listId}?index= (src/api/archives.ts).
 *
 * Rules the server enforces (src/fields/catalogue-rules.ts holds them for both sides):
 * - Name required (CATALOGUE_NAME_REQUIRED) and unique in the database among its kind, case-
 *   insensitively (CATALOGUE_NAME_EXISTS).
 * - Type CHARACTER, NUMBER (NUMERIC accepted, answered NUMBER), DATE, DECIMAL; Length default 50
 *   (1..4000; NUMBER at most 19 digits: CATALOGUE_FIELD_LENGTH_INVALID).
 * - SystemField other than readOnly: MultiValue and Required are stored off whatever was sent.
 * - Regex `(?#message)pattern`: the message is what the user app shows for a value that does not
 *   match; values are matched by RE2 (linear time, src/fields/regex.ts), so a pattern that needs
 *   backreferences or lookaround, or whose program is too large for the field's length, is refused
 *   (CATALOGUE_REGEX_UNSUPPORTED), and one that is no regular expression at all is
 *   CATALOGUE_REGEX_INVALID. A changed Type
 *   clears the saved Regex and UseRegExValidation (a new Regex sent with the change is kept).
 * - List: dropdown and typeahead need ListId (CATALOGUE_LIST_REQUIRED); dynamic needs Primary
 *   (CATALOGUE_DYNAMIC_PRIMARY_REQUIRED) and a non-empty Mapping (CATALOGUE_DYNAMIC_MAPPING_REQUIRED),
 *   unless ListId is a dynamic list whose own rows carry the filters (the seed's Cities).
 *   Mapping entry: when the Primary field's value is PrimaryValue (and the Secondary's is
 *   SecondaryValue, if given), the field offers the values of list ListId.
 * - Delete: a field used by an archive, by another field's dynamic list, or a list used by a field,
 *   is refused with 409 CATALOGUE_FIELD_IN_USE / CATALOGUE_LIST_IN_USE naming the users (documents
 *   keep their values under the field's id, so removing it from archives first is the admin's
 *   deliberate step). A search prompt on a deleted field goes with it. Deleting a table field keeps
 *   its columns as plain fields.
 * - Lists: empty values dropped; an assembly-bound list needs a path (optionally prefixed [SQL] or
 *   [MONGODB]) and parameters; the server setting `lists.assemblyDisabled` (settings table) refuses
 *   them (CATALOGUE_ASSEMBLY_DISABLED). The test call cannot run an assembly here: it checks the
 *   rules and answers Ran false, Key CATALOGUE_ASSEMBLY_NOT_RUN and the list's own stored values.
 * Every change raises the data version (migration 007), and the user app reads an archive's fields
 * with each result page, so a change shows at once.
 */
import * as z from 'zod/mini';
import { ASSEMBLY_PREFIXES, FIELD_TYPE_INPUTS, FIELD_TYPE_NAMES, SYSTEM_FIELDS } from '../fields/catalogue-rules';

const Name = z.string().check(z.maxLength(200));
const Text = (max: number) => z.string().check(z.maxLength(max));

export const LiveField = z.object({
  Method: Text(10),
  Url: Text(2000),
  /** Request headers, one `Name: value` a line. */
  Headers: Text(4000),
  /** Where the value is in the answer (e.g. $.customer.name). */
  JsonPath: Text(1000),
  Script: Text(20_000),
  Body: Text(20_000),
});
export type LiveField = z.infer<typeof LiveField>;

export const FieldExtendedConfig = z.object({
  UseRegExValidation: z.boolean(),
  LiveField: z.nullable(LiveField),
});

export const LIST_BINDING_TYPES = ['dropdown', 'typeahead', 'dynamic'] as const;
export type ListBindingType = (typeof LIST_BINDING_TYPES)[number];

export const ListMapping = z.object({
  ListId: z.int(),
  PrimaryValue: Text(500),
  SecondaryValue: z.optional(Text(500)),
});
export type ListMapping = z.infer<typeof ListMapping>;

export const FieldListBinding = z.object({
  Type: z.enum(LIST_BINDING_TYPES),
  ListId: z.nullable(z.int()),
  /** Dynamic lists: the fields whose values pick the list (stored as ListF1 / ListF2). */
  Primary: z.nullable(z.int()),
  Secondary: z.nullable(z.int()),
  Mapping: z.array(ListMapping).check(z.maxLength(1000)),
});
export type FieldListBinding = z.infer<typeof FieldListBinding>;

const SystemFieldSchema = z.enum(['', ...SYSTEM_FIELDS]);

export const CatalogueField = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  Type: z.enum(FIELD_TYPE_NAMES),
  Format: z.string(),
  Length: z.int(),
  MultiValue: z.boolean(),
  Required: z.boolean(),
  SystemField: SystemFieldSchema,
  Regex: z.string(),
  ExtendedConfig: FieldExtendedConfig,
  List: z.nullable(FieldListBinding),
  /** The table field this field is a column of, or null. */
  TableField: z.nullable(z.int()),
  /** Archives that have this field (ids). */
  Archives: z.array(z.int()),
});
export type CatalogueField = z.infer<typeof CatalogueField>;
export const CatalogueFieldList = z.array(CatalogueField);

export const FieldEdit = z.object({
  Name: Name,
  Type: z.enum(FIELD_TYPE_INPUTS),
  Format: z.optional(Text(100)),
  /** Absent or 0: the default 50. */
  Length: z.optional(z.int().check(z.minimum(0))),
  MultiValue: z.optional(z.boolean()),
  Required: z.optional(z.boolean()),
  SystemField: z.optional(SystemFieldSchema),
  Regex: z.optional(Text(2000)),
  ExtendedConfig: z.optional(z.object({ UseRegExValidation: z.optional(z.boolean()), LiveField: z.optional(z.nullable(LiveField)) })),
  List: z.optional(z.nullable(FieldListBinding)),
});
export type FieldEdit = z.infer<typeof FieldEdit>;

export const TableField = z.looseObject({ Id: z.int(), Name: z.string(), Fields: z.array(z.int()) });
export type TableField = z.infer<typeof TableField>;
export const TableFieldList = z.array(TableField);
export const TableFieldEdit = z.object({ Name: Name, Fields: z.array(z.int()).check(z.maxLength(200)) });
export type TableFieldEdit = z.infer<typeof TableFieldEdit>;

/** A dynamic list's row (the seed's Cities: a city with its country and region). */
export const DynamicListRow = z.object({ Value: z.string(), Filter1: z.nullable(z.string()), Filter2: z.nullable(z.string()) });

export const LIST_KINDS = { fixed: 0, typeahead: 1, dynamic: 2 } as const;

export const CatalogueList = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  /** LIST_KINDS: a dynamic list's values are its Rows (read-only here). */
  Kind: z.int(),
  Values: z.array(z.string()),
  Rows: z.optional(z.array(DynamicListRow)),
  /** '' when the list is not assembly-bound; may start with [SQL] or [MONGODB]. */
  AssemblyPath: z.string(),
  AssemblyParameters: z.string(),
  /** Fields bound to this list (ids). */
  Fields: z.array(z.int()),
});
export type CatalogueList = z.infer<typeof CatalogueList>;
export const CatalogueListList = z.array(CatalogueList);

export const ListEdit = z.object({
  Name: Name,
  Values: z.array(Text(500)).check(z.maxLength(10_000)),
  AssemblyPath: z.optional(Text(2000)),
  AssemblyParameters: z.optional(Text(4000)),
});
export type ListEdit = z.infer<typeof ListEdit>;

/** PUT .../lists/: the assembly was not run (this server cannot); Values: the list's stored values. */
export const ListTest = z.looseObject({ Ran: z.boolean(), Key: z.string(), Values: z.array(z.string()) });
export type ListTest = z.infer<typeof ListTest>;

export const Deleted = z.looseObject({ Id: z.int() });

export const ASSEMBLY_PREFIX_OPTIONS = ['', ...ASSEMBLY_PREFIXES] as const;

/** Error keys the server answers with (400/409) and the console translates. */
export const CATALOGUE_ERROR_KEYS = [
  'CATALOGUE_NAME_REQUIRED',
  'CATALOGUE_NAME_EXISTS',
  'CATALOGUE_FIELD_LENGTH_INVALID',
  'CATALOGUE_REGEX_INVALID',
  'CATALOGUE_REGEX_UNSUPPORTED',
  'CATALOGUE_LIST_REQUIRED',
  'CATALOGUE_DYNAMIC_PRIMARY_REQUIRED',
  'CATALOGUE_DYNAMIC_MAPPING_REQUIRED',
  'CATALOGUE_FIELD_IN_USE',
  'CATALOGUE_LIST_IN_USE',
  'CATALOGUE_TABLE_FIELD_INVALID',
  'CATALOGUE_ASSEMBLY_PATH_REQUIRED',
  'CATALOGUE_ASSEMBLY_PARAMETERS_REQUIRED',
  'CATALOGUE_ASSEMBLY_DISABLED',
  'CATALOGUE_ASSEMBLY_NOT_RUN',
] as const;
export type CatalogueErrorKey = (typeof CATALOGUE_ERROR_KEYS)[number];

/** The settings row (settings table, key 'lists') whose assemblyDisabled: true refuses assembly-bound lists. */
export const LIST_SETTINGS_KEY = 'lists';
