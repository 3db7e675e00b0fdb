/**
 * The export dialog's rules as pure functions (the user-app spec §2 export dialogs, §3 Export settings, §5
 * name patterns and "export with no data", §6 bits 64/128 and licence type 4): which button may start,
 * what the form must fix before it is sent, and the ExportSettings body the server gets
 * (src/api/export.ts). No React, no i18n: the words are translation keys the dialog looks up.
 */
import { ARCHIVE_PERMISSIONS } from '../../api/archives';
import { FORBIDDEN_NAME_CHARS, type ExportFormat, type ExportSettings } from '../../api/export';
import type { LocalSettings } from '../../db/local-settings';

export const READ_ONLY_LICENCE = 4;

export type ExportDefaults = LocalSettings['exportDefaults'];

/** Why an export button cannot start (a translation key), or null when it can. */
export type ExportBlocked = 'EXPORT_NO_EXPORT_RIGHT' | 'EXPORT_NO_EXCEL_RIGHT' | 'DOCUMENTS_READ_ONLY_LICENCE' | null;

/**
 * `permissions`: the user's bits on the grid's archive; null while unknown (nothing is blocked on a
 * guess: the server has the last word). Export needs 128; Excel export 64 and not the read-only
 * licence (§6 lists "excel export" among what type 4 may not do, not the plain export).
 */
export function exportBlocked(format: ExportFormat, licenceType: number | undefined, permissions: number | null): ExportBlocked {
  if (format === 'xlsx' && licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions === null) return null;
  if (format === 'zip' && !(permissions & ARCHIVE_PERMISSIONS.export)) return 'EXPORT_NO_EXPORT_RIGHT';
  if (format === 'xlsx' && !(permissions & ARCHIVE_PERMISSIONS.excelExport)) return 'EXPORT_NO_EXCEL_RIGHT';
  return null;
}

/** What the dialog exports: the checked documents (from every page), or every result of the search. */
export type ExportScope = 'checked' | 'all';

/**
 * What the user may export when the button is pressed: the checked documents by default, else all
 * results; with neither, the spec's invalid-data alert (§5 "export with no data"): no results at
 * all is ERROR_EXPORT_NO_RESULTS; results not known yet (offline, still loading) and nothing
 * checked is ERROR_NO_DOCUMENTS_SELECTED.
 */
export function initialScope(checked: number, results: number | null): { scope: ExportScope } | { error: 'ERROR_EXPORT_NO_RESULTS' | 'ERROR_NO_DOCUMENTS_SELECTED' } {
  if (checked > 0) return { scope: 'checked' };
  if (results === null) return { error: 'ERROR_NO_DOCUMENTS_SELECTED' };
  if (results === 0) return { error: 'ERROR_EXPORT_NO_RESULTS' };
  return { scope: 'all' };
}

/** The dialog's form: the Export settings the user can change, plus what and which fields. */
export interface ExportForm extends ExportDefaults {
  format: ExportFormat;
  scope: ExportScope;
  fieldIds: number[];
}

export type ExportProblemField = 'FilePath' | 'Filename' | 'FieldDelimiter' | 'StringDelimiter' | 'fields';
export type ExportProblemKey =
  | 'EXPORT_NAME_FORBIDDEN'
  | 'EXPORT_DELIMITER_EMPTY'
  | 'EXPORT_DELIMITER_ONE_CHARACTER'
  | 'EXPORT_DELIMITERS_SAME'
  | 'EXPORT_NO_FIELDS'
  | 'ERROR_NO_DOCUMENTS_SELECTED';
export interface ExportProblem {
  field: ExportProblemField | 'scope';
  key: ExportProblemKey;
}

/** The forbidden characters a name holds, each once, in order (for the message). */
export function forbiddenCharsIn(name: string): string[] {
  const out: string[] = [];
  for (const ch of name) if (FORBIDDEN_NAME_CHARS.test(ch) && !out.includes(ch)) out.push(ch);
  return out;
}

/** A folder or file name's problem (§5: \ / : * ? " < > | are forbidden), or null. */
export function nameProblem(name: string): 'EXPORT_NAME_FORBIDDEN' | null {
  return FORBIDDEN_NAME_CHARS.test(name) ? 'EXPORT_NAME_FORBIDDEN' : null;
}

/** The delimiters' problems: each one character (a newline cannot separate fields), and they must differ. */
export function delimiterProblems(field: string, string: string): ExportProblem[] {
  const out: ExportProblem[] = [];
  const one = (v: string, which: 'FieldDelimiter' | 'StringDelimiter') => {
    if (v === '') out.push({ field: which, key: 'EXPORT_DELIMITER_EMPTY' });
    else if ([...v].length !== 1 || v === '\n' || v === '\r') out.push({ field: which, key: 'EXPORT_DELIMITER_ONE_CHARACTER' });
  };
  one(field, 'FieldDelimiter');
  one(string, 'StringDelimiter');
  if (out.length === 0 && field === string) out.push({ field: 'StringDelimiter', key: 'EXPORT_DELIMITERS_SAME' });
  return out;
}

/** The Export settings tab's problems (the same name and delimiter rules as the dialog). */
export function defaultsProblems(d: ExportDefaults): ExportProblem[] {
  const out: ExportProblem[] = [];
  if (nameProblem(d.FilePath)) out.push({ field: 'FilePath', key: 'EXPORT_NAME_FORBIDDEN' });
  if (nameProblem(d.Filename)) out.push({ field: 'Filename', key: 'EXPORT_NAME_FORBIDDEN' });
  return [...out, ...delimiterProblems(d.FieldDelimiter, d.StringDelimiter)];
}

/** Everything the user must fix before Start sends the form; empty when it may go. */
export function formProblems(f: ExportForm, checked: number): ExportProblem[] {
  const out: ExportProblem[] = [];
  if (f.scope === 'checked' && checked === 0) out.push({ field: 'scope', key: 'ERROR_NO_DOCUMENTS_SELECTED' });
  if (nameProblem(f.FilePath)) out.push({ field: 'FilePath', key: 'EXPORT_NAME_FORBIDDEN' });
  if (nameProblem(f.Filename)) out.push({ field: 'Filename', key: 'EXPORT_NAME_FORBIDDEN' });
  const csv = f.format === 'zip' && f.ExportWithCSV;
  if (csv) out.push(...delimiterProblems(f.FieldDelimiter, f.StringDelimiter));
  // A workbook of no columns but the ids says nothing; a zip of files alone is fine without fields.
  if (f.format === 'xlsx' && f.fieldIds.length === 0) out.push({ field: 'fields', key: 'EXPORT_NO_FIELDS' });
  return out;
}

/** The result's file name: the user's name with the format's extension (added when missing), or none (the server names it). */
export function resultFileName(name: string, format: ExportFormat): string | undefined {
  const n = name.trim();
  if (!n) return undefined;
  const ext = `.${format}`;
  return n.toLowerCase().endsWith(ext) ? n : `${n}${ext}`;
}

export interface ExportTarget {
  dbId: number;
  searchId: number;
  archiveId: number;
  /** The search's criteria as the grid runs them (the address's `criteria`). */
  criteria: string;
  /** The checked documents, each in its own archive (a parent archive lists its sub-archives' too). */
  checked: readonly { id: number; archiveId: number }[];
}

/**
 * The POST body (ExportSettings, PascalCase as the spec writes it). The checked documents go as Docs;
 * "all results" sends no Docs, and the server runs SearchID with SearchCriteria in ArchiveID as the
 * grid does. Fields the chosen format ignores are not sent (a workbook has no files, delimiters or
 * conversions). WithAnnotations (the annotations drawn onto the exported pages) is sent only when chosen.
 */
export function buildExportSettings(target: ExportTarget, f: ExportForm): ExportSettings {
  const zip = f.format === 'zip';
  const csv = zip && f.ExportWithCSV;
  const filePath = f.FilePath.trim();
  const filename = resultFileName(f.Filename, f.format);
  return {
    DatabaseID: target.dbId,
    ArchiveID: target.archiveId,
    SearchID: target.searchId,
    ...(zip && filePath ? { FilePath: filePath } : {}),
    ...(filename ? { Filename: filename } : {}),
    FieldDelimiter: csv ? f.FieldDelimiter : ',',
    StringDelimiter: csv ? f.StringDelimiter : '"',
    ...(csv ? { UseString: f.UseString } : {}),
    ...(zip ? { ExportWithCSV: f.ExportWithCSV, ConvertToPDF: f.ConvertToPDF, ConvertToBW: f.ConvertToBW, ...(f.WithAnnotations ? { WithAnnotations: true } : {}) } : {}),
    ExportWithMappedFields: f.ExportWithMappedFields,
    FieldIDs: [...f.fieldIds],
    ...(f.scope === 'checked' ? { Docs: target.checked.map((d) => ({ ArchiveID: d.archiveId, DocID: d.id })) } : { SearchCriteria: target.criteria }),
    Format: f.format,
  };
}

/** The form as the dialog opens it: the Export tab's defaults, the scope, the visible fields checked. */
export function initialForm(defaults: ExportDefaults, format: ExportFormat, scope: ExportScope, visibleFieldIds: readonly number[]): ExportForm {
  return { ...defaults, format, scope, fieldIds: [...visibleFieldIds] };
}

/** Toggles one field, keeping the grid's column order (`order`: every field id in that order). */
export function toggleField(selected: readonly number[], id: number, order: readonly number[]): number[] {
  const set = new Set(selected);
  if (set.has(id)) set.delete(id);
  else set.add(id);
  return order.filter((x) => set.has(x));
}
