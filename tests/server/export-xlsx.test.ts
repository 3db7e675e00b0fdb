/**
 * The Excel export's streaming writer (server/services/export-xlsx.ts): a workbook read back with
 * exceljs's reader has the bold, frozen header and the rows with their types (numbers, dates, texts,
 * empty cells); 100,000 rows keep the heap flat.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { createXlsxWriter, xlsxCell } from '../../server/services/export-xlsx';

const dir = mkdtempSync(join(tmpdir(), 'xlsx-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readBack(path: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

describe('createXlsxWriter', () => {
  it('writes a bold, frozen header and rows whose numbers, dates and texts keep their types', async () => {
    const path = join(dir, 'typed.xlsx');
    const header = ['ArchiveID', 'DocID', 'File', 'Title', 'Amount', 'Document Date', 'Modified', 'Invoice Number', 'Note'];
    const w = createXlsxWriter(path, 'Invoices: 2024/Q1', header);
    w.addRow([1, 42, 'invoice-42.pdf', 'Invoice "A", with, commas', 1234.5, '2024-03-15', '2024-03-15T10:20:30Z', '000123', null]);
    w.addRow([1, 43, 'invoice-43.tif', 'Zweite Rechnung – Müller', -0.25, '2024-02-30', '', '42', 'line one\nline two']);
    await w.finish();

    const wb = await readBack(path);
    expect(wb.worksheets).toHaveLength(1);
    const ws = wb.worksheets[0]!;
    // Excel's forbidden sheet-name characters are replaced.
    expect(ws.name).toBe('Invoices  2024 Q1');
    expect(ws.rowCount).toBe(3);
    const head = ws.getRow(1);
    expect(header.map((_, i) => head.getCell(i + 1).value)).toEqual(header);
    expect(head.getCell(1).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    const r2 = ws.getRow(2);
    const V = ExcelJS.ValueType;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((c) => r2.getCell(c).type)).toEqual([V.Number, V.Number, V.String, V.String, V.Number, V.Date, V.Date, V.String, V.Null]);
    expect(r2.getCell(5).value).toBe(1234.5);
    expect(r2.getCell(4).value).toBe('Invoice "A", with, commas');
    expect((r2.getCell(6).value as Date).toISOString()).toBe('2024-03-15T00:00:00.000Z');
    expect(r2.getCell(6).numFmt).toBe('yyyy-mm-dd');
    expect((r2.getCell(7).value as Date).toISOString()).toBe('2024-03-15T10:20:30.000Z');
    // A number-like text of a text field keeps its leading zeros.
    expect(r2.getCell(8).value).toBe('000123');

    const r3 = ws.getRow(3);
    expect(r3.getCell(4).value).toBe('Zweite Rechnung – Müller');
    expect(r3.getCell(5).value).toBe(-0.25);
    // Not a day: kept as the text it is.
    expect(r3.getCell(6).value).toBe('2024-02-30');
    expect(r3.getCell(9).value).toBe('line one\nline two');
  });

  it('reads date texts as dates only when they are dates', () => {
    expect(xlsxCell('2024-12-31')).toEqual({ value: new Date(Date.UTC(2024, 11, 31)), numFmt: 'yyyy-mm-dd' });
    expect(xlsxCell('2024-12-31T23:59')).toEqual({ value: new Date(Date.UTC(2024, 11, 31, 23, 59)), numFmt: 'yyyy-mm-dd hh:mm:ss' });
    expect(xlsxCell('2024-12-31T23:59:00+02:00').value).toEqual(new Date(Date.UTC(2024, 11, 31, 21, 59)));
    expect(xlsxCell('2024-13-01')).toEqual({ value: '2024-13-01' });
    expect(xlsxCell('31.12.2024')).toEqual({ value: '31.12.2024' });
    expect(xlsxCell('2024-12-31 and more')).toEqual({ value: '2024-12-31 and more' });
    expect(xlsxCell(7)).toEqual({ value: 7 });
    expect(xlsxCell(null)).toEqual({ value: null });
  });

  it('keeps the heap flat over 100,000 rows', { timeout: 300_000 }, async () => {
    // A full collection before each reading, so the figures are live data, not garbage.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const path = join(dir, 'big.xlsx');
    const w = createXlsxWriter(path, 'Big', ['ArchiveID', 'DocID', 'File', 'Title', 'Amount', 'Date']);
    const heap: number[] = [];
    const ROWS = 100_000;
    for (let i = 1; i <= ROWS; i++) {
      w.addRow([1, i, `document-${i}.pdf`, `Invoice ${i} for a customer with a long enough name`, i * 1.25, '2024-03-15']);
      // As the export job does between batches of documents: the file stream drains meanwhile.
      if (i % 500 === 0) await new Promise((r) => setImmediate(r));
      if (i % 20_000 === 0) {
        gc();
        heap.push(process.memoryUsage().heapUsed);
      }
    }
    await w.finish();
    const mb = heap.map((h) => Math.round(h / 1e5) / 10);
    console.log(`xlsx writer: live heap at 20k, 40k, ... 100k rows: ${mb.join(', ')} MB`);
    // Measured here: under 1 MB of growth from 20k to 100k rows; rows kept in memory would add ~50 MB.
    expect(heap[4]! - heap[0]!).toBeLessThan(5e6);
    const wb = await readBack(path);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(ROWS + 1);
    expect(ws.getRow(ROWS + 1).getCell(2).value).toBe(ROWS);
  });
});
