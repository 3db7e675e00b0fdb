import { expose } from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import type { Field } from '../../src/api/archives';
import { csvWorkerApi } from '../../workers/csv.worker';
import { planImport, type CsvWorkerFactory, type PlanWords } from '../../src/features/import/import-plan';
import {
  errorFileNameOf, fieldMappingOf, fileNameOf, guessFileColumn, guessMapping, importBlocked, importProblems, importShown, importableFields, initialImportForm, unmappedRequired, type ImportForm,
} from '../../src/features/import/import-rules';

const field = (f: Partial<Field> & Pick<Field, 'ID' | 'Name' | 'Type'>): Field => ({ Size: 50, Prop: 0, ...f }) as Field;
const FIELDS = [
  field({ ID: 1, Name: 'Title', Type: 1, Size: 10, Prop: 2 }),
  field({ ID: 2, Name: 'Invoice Number', Type: 2 }),
  field({ ID: 3, Name: 'Date', Type: 3, Mask: 'MM/dd/yyyy' }),
  field({ ID: 4, Name: 'Date Entered', Type: 3, Prop: 4 }),
  field({ ID: 5, Name: 'Locked', Type: 1, Prop: 2048 }),
  field({ ID: 6, Name: 'Live', Type: 1, ExtendedConfig: { LiveField: true } }),
];

const worker: CsvWorkerFactory = () => {
  const { port1, port2 } = new MessageChannel();
  expose(csvWorkerApi, port2 as unknown as Parameters<typeof expose>[1]);
  return {
    endpoint: port1 as unknown as ReturnType<CsvWorkerFactory>['endpoint'],
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
};

const words: PlanWords = {
  problem: (p) => `${p.key}@${p.column}`,
  file: (r) => `${r.key}:${r.name}`,
  reasonHeader: 'Reason',
};

const pdf = (name: string, size = 5) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

describe('who may import', () => {
  it('licence 4 gets no button; no add right or a versions archive refuses with the reason', () => {
    expect(importShown(4)).toBe(false);
    expect(importShown(1)).toBe(true);
    expect(importBlocked(0, 1)).toBe('IMPORT_NO_ADD_RIGHT');
    expect(importBlocked(16, 0xffff)).toBe('IMPORT_VERSIONS_ARCHIVE');
    expect(importBlocked(0, 1 | 2)).toBeNull();
    expect(importBlocked(null, null)).toBeNull();
  });
});

describe('the mapping', () => {
  it('offers the fields a value may be given: not read-only, not live; system fields only when overwriting them', () => {
    expect(importableFields(FIELDS, false).map((f) => f.ID)).toEqual([1, 2, 3]);
    expect(importableFields(FIELDS, true).map((f) => f.ID)).toEqual([1, 2, 3, 4]);
  });

  it('guesses each field by its header name (case, spaces and _ ignored) and the file column', () => {
    const cols = ['invoice_number', 'TITLE', 'Other', 'File Name'];
    expect(guessMapping(cols, FIELDS)).toEqual({ 1: { column: 1, checked: true }, 2: { column: 0, checked: true } });
    expect(guessFileColumn(cols)).toBe(3);
    expect(guessFileColumn(['a', 'b'])).toBe(-1);
  });

  it('needs a CSV, usable delimiters, one ticked field, and every required field mapped (ERROR_IMPORT_MISSING_FIELDS)', () => {
    const f = initialImportForm();
    const fields = importableFields(FIELDS, false);
    expect(importProblems(f, fields, { csv: false, columns: 0 })).toEqual(['IMPORT_NEED_CSV']);
    expect(importProblems({ ...f, stringDelimiter: ',' }, fields, { csv: true, columns: 0 })).toEqual(['CSV_DELIMITERS_SAME']);
    expect(importProblems(f, fields, { csv: true, columns: 3 })).toEqual(['IMPORT_NEED_MAPPING', 'ERROR_IMPORT_MISSING_FIELDS']);
    const partly: ImportForm = { ...f, mapping: { 2: { column: 0, checked: true }, 1: { column: 1, checked: false } } };
    expect(importProblems(partly, fields, { csv: true, columns: 3 })).toEqual(['ERROR_IMPORT_MISSING_FIELDS']);
    expect(unmappedRequired(partly, fields).map((x) => x.Name)).toEqual(['Title']);
    const ok: ImportForm = { ...partly, mapping: { ...partly.mapping, 1: { column: 1, checked: true } } };
    expect(importProblems(ok, fields, { csv: true, columns: 3 })).toEqual([]);
    expect(fieldMappingOf(partly)).toEqual([
      { FieldID: 1, RowID: 1, Checked: false },
      { FieldID: 2, RowID: 0, Checked: true },
    ]);
  });

  it('a file cell names its file by its last part, whichever slash; the error file is named after the CSV', () => {
    expect(fileNameOf(' C:\\scans\\a.pdf ')).toBe('a.pdf');
    expect(fileNameOf('in/b.pdf')).toBe('b.pdf');
    expect(errorFileNameOf('invoices.csv')).toBe('invoices-errors.csv');
  });
});

describe('the check (planImport, the CSV worker over a MessageChannel)', () => {
  const form: ImportForm = { ...initialImportForm(), mapping: { 1: { column: 0, checked: true }, 3: { column: 1, checked: true } }, fileColumn: 2 };
  const fields = importableFields(FIELDS, false);

  it('keeps the good rows in wire form with their file (each file once), refuses bad values, files not picked and zero-byte files, and writes them to the error file', async () => {
    const csv = [
      'Title,Date,File',
      '"A, quoted",12/31/2024,a.pdf',
      '"two\nlines",01/02/2025,b.pdf',
      'Bad date,13/45/2024,a.pdf',
      'Far too long a title,01/01/2025,a.pdf',
      'Missing,01/01/2025,nowhere.pdf',
      'Empty,01/01/2025,zero.pdf',
      'No file,01/03/2025,',
      'Again,01/04/2025,C:\\docs\\A.PDF',
    ].join('\n');
    const plan = await planImport(new Blob([csv]), form, fields, [pdf('a.pdf'), pdf('b.pdf'), pdf('zero.pdf', 0)], { locale: 'en-US', words, worker });
    expect(plan.total).toBe(8);
    expect(plan.rows).toEqual([
      { Line: 2, Values: [{ ID: 1, VAL: 'A, quoted' }, { ID: 3, VAL: '2024-12-31' }], File: 0 },
      { Line: 3, Values: [{ ID: 1, VAL: 'two\nlines' }, { ID: 3, VAL: '2025-01-02' }], File: 1 },
      { Line: 8, Values: [{ ID: 1, VAL: 'No file' }, { ID: 3, VAL: '2025-01-03' }] },
      { Line: 9, Values: [{ ID: 1, VAL: 'Again' }, { ID: 3, VAL: '2025-01-04' }], File: 0 },
    ]);
    expect(plan.files.map((f) => f.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(plan.fileNames).toEqual(['a.pdf', 'b.pdf']);
    expect(plan.refused).toBe(4);
    const text = await plan.errorFile!.text();
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Title,Date,File,Reason');
    expect(lines.slice(1)).toEqual([
      'Bad date,13/45/2024,a.pdf,FIELD_INVALID_DATE@2',
      'Far too long a title,01/01/2025,a.pdf,FIELD_TOO_LONG@1',
      'Missing,01/01/2025,nowhere.pdf,IMPORT_FILE_NOT_PICKED:nowhere.pdf',
      'Empty,01/01/2025,zero.pdf,ZERO_BYTE_FILE_REMOVED_MSG:zero.pdf',
    ]);
  });

  it('without a file column every row is index data only; no refused row, no error file', async () => {
    const plan = await planImport(new Blob(['Title,Date\nA,01/01/2025\n']), { ...form, fileColumn: -1 }, fields, [], { locale: 'en-US', words, worker });
    expect(plan.rows).toEqual([{ Line: 2, Values: [{ ID: 1, VAL: 'A' }, { ID: 3, VAL: '2025-01-01' }] }]);
    expect(plan.files).toEqual([]);
    expect(plan.errorFile).toBeNull();
  });

  it("reads the file once, in the worker: no batch of the file's text is handed to the page", async () => {
    const scan = vi.spyOn(csvWorkerApi, 'scan');
    const validate = vi.spyOn(csvWorkerApi, 'validate');
    try {
      const plan = await planImport(new Blob(['Title,Date,File\nA,01/01/2025,a.pdf\nB,13/45/2024,a.pdf\n']), form, fields, [pdf('a.pdf')], { locale: 'en-US', words, worker });
      expect(plan.rows).toEqual([{ Line: 2, Values: [{ ID: 1, VAL: 'A' }, { ID: 3, VAL: '2025-01-01' }], File: 0 }]);
      expect(plan.refused).toBe(1);
      expect(scan).not.toHaveBeenCalled();
      expect(validate).toHaveBeenCalledTimes(1);
    } finally {
      scan.mockRestore();
      validate.mockRestore();
    }
  });

  it('reads the file with the chosen delimiters', async () => {
    const plan = await planImport(new Blob(["Title;Date\n'x;y';01/01/2025\n"]), { ...form, fieldDelimiter: ';', stringDelimiter: "'", fileColumn: -1 }, fields, [], { locale: 'en-US', words, worker });
    expect(plan.rows[0]!.Values[0]).toEqual({ ID: 1, VAL: 'x;y' });
  });
});
