import { describe, expect, it } from 'vitest';
import { ExportSettings } from '../../src/api/export';
import { LocalSettings } from '../../src/db/local-settings';
import {
  buildExportSettings, defaultsProblems, delimiterProblems, exportBlocked, forbiddenCharsIn, formProblems, initialForm, initialScope, nameProblem,
  resultFileName, toggleField, type ExportForm,
} from '../../src/features/export/export-request';

const defaults = LocalSettings.parse({}).exportDefaults;
const target = { dbId: 1, searchId: 3, archiveId: 7, criteria: '[{"ID":5,"VAL":"x"}]', checked: [{ id: 11, archiveId: 7 }, { id: 12, archiveId: 8 }] };
const form = (over: Partial<ExportForm> = {}): ExportForm => ({ ...initialForm(defaults, 'zip', 'checked', [5, 6]), ...over });

describe('export defaults (the Export settings tab)', () => {
  it('are CSV with comma and double quote, no conversions, no names', () => {
    expect(defaults).toEqual({
      FilePath: '', Filename: '', ExportWithCSV: true, FieldDelimiter: ',', StringDelimiter: '"', UseString: false, ExportWithMappedFields: false, ConvertToPDF: false, ConvertToBW: false, WithAnnotations: false,
    });
  });
  it('a stored record without them (an older app) reads as the defaults', () => {
    expect(LocalSettings.parse({ showVersionArchive: true }).exportDefaults.FieldDelimiter).toBe(',');
  });
});

describe('which export button may start', () => {
  it('export needs bit 128; Excel export bit 64 and not the read-only licence', () => {
    expect(exportBlocked('zip', 1, 128)).toBeNull();
    expect(exportBlocked('zip', 1, 1 | 64)).toBe('EXPORT_NO_EXPORT_RIGHT');
    expect(exportBlocked('xlsx', 1, 64)).toBeNull();
    expect(exportBlocked('xlsx', 1, 128)).toBe('EXPORT_NO_EXCEL_RIGHT');
    expect(exportBlocked('xlsx', 4, 0xffff)).toBe('DOCUMENTS_READ_ONLY_LICENCE');
    // The read-only licence may still export (the user-app spec §6 lists only the Excel export).
    expect(exportBlocked('zip', 4, 128)).toBeNull();
  });
  it('nothing is blocked on unknown bits (the server decides)', () => {
    expect(exportBlocked('zip', 1, null)).toBeNull();
    expect(exportBlocked('xlsx', 1, null)).toBeNull();
  });
});

describe('what is exported when the button is pressed', () => {
  it('the checked documents; else every result; else the invalid-data alert', () => {
    expect(initialScope(3, 40)).toEqual({ scope: 'checked' });
    expect(initialScope(0, 40)).toEqual({ scope: 'all' });
    expect(initialScope(0, 0)).toEqual({ error: 'ERROR_EXPORT_NO_RESULTS' });
    expect(initialScope(0, null)).toEqual({ error: 'ERROR_NO_DOCUMENTS_SELECTED' });
    expect(initialScope(2, null)).toEqual({ scope: 'checked' });
  });
});

describe('name checks (the user-app spec §5)', () => {
  it('every character of \\ / : * ? " < > | is refused, names without them pass', () => {
    for (const ch of ['\\', '/', ':', '*', '?', '"', '<', '>', '|']) expect(nameProblem(`a${ch}b`), ch).toBe('EXPORT_NAME_FORBIDDEN');
    for (const ok of ['', 'Invoices 2026', 'export_{x}&y.zip', 'Übersicht-März']) expect(nameProblem(ok), ok).toBeNull();
  });
  it('names each forbidden character once, in order', () => {
    expect(forbiddenCharsIn('a:b/c:d?')).toEqual([':', '/', '?']);
    expect(forbiddenCharsIn('plain')).toEqual([]);
  });
  it('the form lists a bad folder and a bad file name each at its field', () => {
    expect(formProblems(form({ FilePath: 'a/b', Filename: 'x?.zip' }), 2)).toEqual([
      { field: 'FilePath', key: 'EXPORT_NAME_FORBIDDEN' },
      { field: 'Filename', key: 'EXPORT_NAME_FORBIDDEN' },
    ]);
    expect(formProblems(form(), 2)).toEqual([]);
  });
});

describe('delimiters', () => {
  it('must be one character each and differ', () => {
    expect(delimiterProblems(',', '"')).toEqual([]);
    expect(delimiterProblems('\t', "'")).toEqual([]);
    expect(delimiterProblems('', '"')).toEqual([{ field: 'FieldDelimiter', key: 'EXPORT_DELIMITER_EMPTY' }]);
    expect(delimiterProblems(';;', '"')).toEqual([{ field: 'FieldDelimiter', key: 'EXPORT_DELIMITER_ONE_CHARACTER' }]);
    expect(delimiterProblems(',', '\n')).toEqual([{ field: 'StringDelimiter', key: 'EXPORT_DELIMITER_ONE_CHARACTER' }]);
    expect(delimiterProblems('"', '"')).toEqual([{ field: 'StringDelimiter', key: 'EXPORT_DELIMITERS_SAME' }]);
  });
  it('count only when a CSV is written', () => {
    expect(formProblems(form({ FieldDelimiter: ';', StringDelimiter: ';' }), 1)).toEqual([{ field: 'StringDelimiter', key: 'EXPORT_DELIMITERS_SAME' }]);
    expect(formProblems(form({ FieldDelimiter: ';', StringDelimiter: ';', ExportWithCSV: false }), 1)).toEqual([]);
    expect(formProblems(form({ format: 'xlsx', FieldDelimiter: '', StringDelimiter: '' }), 1)).toEqual([]);
  });
  it('the settings tab checks names and delimiters alike', () => {
    expect(defaultsProblems({ ...defaults, Filename: 'a|b', FieldDelimiter: '"' })).toEqual([
      { field: 'Filename', key: 'EXPORT_NAME_FORBIDDEN' },
      { field: 'StringDelimiter', key: 'EXPORT_DELIMITERS_SAME' },
    ]);
  });
  it('other checks: checked scope with none checked; a workbook needs a field', () => {
    expect(formProblems(form(), 0)).toEqual([{ field: 'scope', key: 'ERROR_NO_DOCUMENTS_SELECTED' }]);
    expect(formProblems(form({ format: 'xlsx', fieldIds: [] }), 1)).toEqual([{ field: 'fields', key: 'EXPORT_NO_FIELDS' }]);
    expect(formProblems(form({ fieldIds: [] }), 1)).toEqual([]);
  });
});

describe('the request body (ExportSettings)', () => {
  it('checked documents go as Docs, each with its own archive; the CSV options as chosen', () => {
    const body = buildExportSettings(target, form({ FieldDelimiter: ';', StringDelimiter: "'", UseString: true, FilePath: ' Invoices ', Filename: 'march' }));
    expect(body).toEqual({
      DatabaseID: 1, ArchiveID: 7, SearchID: 3, FilePath: 'Invoices', Filename: 'march.zip',
      FieldDelimiter: ';', StringDelimiter: "'", UseString: true, ExportWithCSV: true, ConvertToPDF: false, ConvertToBW: false, ExportWithMappedFields: false,
      FieldIDs: [5, 6], Docs: [{ ArchiveID: 7, DocID: 11 }, { ArchiveID: 8, DocID: 12 }], Format: 'zip',
    });
    expect(ExportSettings.safeParse(body).success).toBe(true);
  });
  it('all results send no Docs but the search and its criteria', () => {
    const body = buildExportSettings(target, form({ scope: 'all' }));
    expect(body.Docs).toBeUndefined();
    expect(body).toMatchObject({ SearchID: 3, ArchiveID: 7, SearchCriteria: target.criteria });
    expect(body.Filename).toBeUndefined();
    expect(body.FilePath).toBeUndefined();
  });
  it('an Excel export sends no files options, no folder, and names a .xlsx', () => {
    const body = buildExportSettings(target, form({ format: 'xlsx', Filename: 'book.XLSX', FilePath: 'x', ConvertToPDF: true, FieldDelimiter: ';' }));
    expect(body).toMatchObject({ Format: 'xlsx', Filename: 'book.XLSX', FieldDelimiter: ',', StringDelimiter: '"', FieldIDs: [5, 6] });
    for (const k of ['FilePath', 'ExportWithCSV', 'ConvertToPDF', 'ConvertToBW', 'UseString', 'WithAnnotations'] as const) expect(body[k], k).toBeUndefined();
    expect(ExportSettings.safeParse(body).success).toBe(true);
  });
  it('asks for annotations only when chosen, and only for files', () => {
    expect(buildExportSettings(target, form()).WithAnnotations).toBeUndefined();
    expect(buildExportSettings(target, form({ WithAnnotations: true })).WithAnnotations).toBe(true);
    expect(buildExportSettings(target, form({ WithAnnotations: true, format: 'xlsx' })).WithAnnotations).toBeUndefined();
  });
  it('adds the extension to a file name that lacks it', () => {
    expect(resultFileName('a', 'zip')).toBe('a.zip');
    expect(resultFileName(' a.ZIP ', 'zip')).toBe('a.ZIP');
    expect(resultFileName('a.zip', 'xlsx')).toBe('a.zip.xlsx');
    expect(resultFileName('  ', 'zip')).toBeUndefined();
  });
});

describe('the field select', () => {
  it('keeps the grid column order whatever order fields are ticked in', () => {
    const order = [9, 3, 5, 1];
    let sel: number[] = [];
    for (const id of [1, 9, 5]) sel = toggleField(sel, id, order);
    expect(sel).toEqual([9, 5, 1]);
    expect(toggleField(sel, 9, order)).toEqual([5, 1]);
  });
});
