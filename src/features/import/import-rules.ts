/**
 * The import dialog's rules (the user-app spec §3 Import options, §5, §6; the archive-ops spec §5), pure
 * so they are tested without a browser: who may import, which fields a CSV column may fill, the
 * mapping guessed from the header, what must be fixed before the file is read, and the file a CSV
 * row names (the worker checks the values and turns them into their wire form).
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, FIELD_PROPS, type Field } from '../../api/archives';
import { IMPORT_KEYS, type ImportFieldMapping } from '../../api/import';
import { isLiveField, READ_ONLY_LICENCE_TYPE, READ_ONLY_PROP_MASK } from '../../fields/editability';
import { isRequiredField } from '../../fields/rules';
import { dialectProblem } from '../../platform/csv-parse';

export type ImportBlocked = 'IMPORT_NO_ADD_RIGHT' | 'IMPORT_VERSIONS_ARCHIVE' | null;

/** Licence 4 gets no button at all (§6 disables import for it). */
export const importShown = (licenceType: number | undefined): boolean => licenceType !== READ_ONLY_LICENCE_TYPE;

/** Why the button refuses (shown with it, said again when pressed), or null. */
export function importBlocked(archiveProps: number | null, permissions: number | null): ImportBlocked {
  if (archiveProps !== null && (archiveProps & ARCHIVE_PROPS.versionsArchive) !== 0) return 'IMPORT_VERSIONS_ARCHIVE';
  if (permissions !== null && (permissions & ARCHIVE_PERMISSIONS.add) === 0) return 'IMPORT_NO_ADD_RIGHT';
  return null;
}

/** The system fields the server fills itself (date entered, indexed by, page count, last modified by, file type). */
export const SYSTEM_PROP_MASK = FIELD_PROPS.dateEntered | FIELD_PROPS.indexedBy | FIELD_PROPS.pageCount | FIELD_PROPS.lastModifiedBy | FIELD_PROPS.fileType;
const isSystemField = (f: Pick<Field, 'Prop'>): boolean => ((f.Prop ?? 0) & SYSTEM_PROP_MASK) !== 0;

/** The fields a CSV column may fill: not live, not read-only; system fields only with "Overwrite system fields". */
export function importableFields<F extends Pick<Field, 'Prop' | 'ExtendedConfig'>>(fields: readonly F[], overwriteSystem: boolean): F[] {
  return fields.filter((f) => {
    if (isLiveField(f)) return false;
    const prop = f.Prop ?? 0;
    if ((prop & READ_ONLY_PROP_MASK & ~SYSTEM_PROP_MASK) !== 0) return false;
    return overwriteSystem || !isSystemField(f);
  });
}

export interface ImportForm {
  fieldDelimiter: string;
  stringDelimiter: string;
  overwriteSystem: boolean;
  /** Field id -> its column (0-based) and whether it is ticked. */
  mapping: Record<number, { column: number; checked: boolean }>;
  /** The column naming each row's document file; -1: rows are documents of index data only. */
  fileColumn: number;
}

export const initialImportForm = (): ImportForm => ({ fieldDelimiter: ',', stringDelimiter: '"', overwriteSystem: false, mapping: {}, fileColumn: -1 });

const norm = (s: string) => s.toLowerCase().replace(/[\s_\-.]/g, '');
const FILE_COLUMN_NAMES = new Set(['file', 'filename', 'filepath', 'path', 'document', 'documentfile', 'datei', 'dateiname', 'fichier', 'nomfichier', 'archivo', 'bestand', 'bestandsnaam', 'ficheiro', 'arquivo']);

/** Each field mapped to the column of the same name (case, spaces, '_' and '-' ignored), ticked. */
export function guessMapping(columns: readonly string[], fields: readonly Pick<Field, 'ID' | 'Name'>[]): ImportForm['mapping'] {
  const byName = new Map<string, number>();
  columns.forEach((c, i) => {
    const k = norm(c);
    if (k && !byName.has(k)) byName.set(k, i);
  });
  const out: ImportForm['mapping'] = {};
  for (const f of fields) {
    const col = byName.get(norm(f.Name));
    if (col !== undefined) out[f.ID] = { column: col, checked: true };
  }
  return out;
}

/** The column whose header says it holds file names (File, FileName, Path ...), or -1. */
export const guessFileColumn = (columns: readonly string[]): number => columns.findIndex((c) => FILE_COLUMN_NAMES.has(norm(c)));

/** The ticked, mapped fields among `fields`, in their order. */
export const mappedFields = <F extends Pick<Field, 'ID'>>(form: ImportForm, fields: readonly F[]): { field: F; column: number }[] =>
  fields.flatMap((f) => {
    const m = form.mapping[f.ID];
    return m && m.checked && m.column >= 0 ? [{ field: f, column: m.column }] : [];
  });

/** Required fields (Prop 2) of the archive no ticked column fills. */
export function unmappedRequired<F extends Field>(form: ImportForm, fields: readonly F[]): F[] {
  const mapped = new Set(mappedFields(form, fields).map((m) => m.field.ID));
  return fields.filter((f) => isRequiredField(f) && !mapped.has(f.ID));
}

export type ImportProblem =
  | 'IMPORT_NEED_CSV'
  | 'CSV_DELIMITER_ONE_CHARACTER'
  | 'CSV_DELIMITERS_SAME'
  | 'IMPORT_NEED_MAPPING'
  | typeof IMPORT_KEYS.missingFields;

/** What to fix before the file is read; keys of the message catalogue (the missing fields named by unmappedRequired). */
export function importProblems(form: ImportForm, fields: readonly Field[], ctx: { csv: boolean; columns: number }): ImportProblem[] {
  const out: ImportProblem[] = [];
  if (!ctx.csv) out.push('IMPORT_NEED_CSV');
  const dialect = dialectProblem(form);
  if (dialect) out.push(dialect);
  if (ctx.csv && ctx.columns > 0) {
    if (!mappedFields(form, fields).length) out.push('IMPORT_NEED_MAPPING');
    if (unmappedRequired(form, fields).length) out.push(IMPORT_KEYS.missingFields);
  }
  return out;
}

/** FieldMapping of Import options: every mapped field, ticked or not (RowID the column). */
export const fieldMappingOf = (form: ImportForm): ImportFieldMapping[] =>
  Object.entries(form.mapping)
    .filter(([, m]) => m.column >= 0)
    .map(([id, m]) => ({ FieldID: Number(id), RowID: m.column, Checked: m.checked }));

/** The name a CSV cell gives a file: its last part, whichever slash a path uses. */
export const fileNameOf = (cell: string): string => cell.trim().split(/[\\/]/).pop()?.trim() ?? '';

/** The error file's default name: `<csv name>-errors.csv`. */
export const errorFileNameOf = (csvName: string): string => `${csvName.replace(/\.[^.]*$/, '') || 'import'}-errors.csv`;

/** The picked files by name (case-insensitive: a CSV written on Windows may not match the case). */
export function pickedByName<F extends { name: string }>(files: readonly F[]): (name: string) => F | undefined {
  const exact = new Map(files.map((f) => [f.name, f]));
  const folded = new Map(files.map((f) => [f.name.toLowerCase(), f]));
  return (name) => exact.get(name) ?? folded.get(name.toLowerCase());
}
