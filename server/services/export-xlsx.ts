/**
 * The Excel export's workbook (src/api/export.ts, Format 'xlsx'): one sheet of index data written
 * row by row straight to a file with exceljs's streaming WorkbookWriter, so 100,000 rows never sit
 * in memory (tests/server/export-xlsx.test.ts measures the heap). Shared strings are off: that table
 * would hold every distinct text until the end; inline strings make the file a little larger.
 *
 * The first row is the header, bold and frozen (it stays in view while scrolling). Numbers passed as
 * numbers are number cells; a text that is a date (yyyy-mm-dd, as the server stores date fields) or
 * a date and time (ISO 8601) becomes a date cell, shown as such; other texts stay texts (an invoice
 * number '000123' keeps its zeros: the caller passes a number only for a number field).
 */
import ExcelJS from 'exceljs';

export type XlsxValue = string | number | Date | null;

export interface XlsxWriter {
  /**
   * Adds one row (values in header order). It is written out as the file stream drains, which needs
   * the event loop: rows added in one synchronous loop wait in memory until it ends, so a caller
   * awaits something (its next batch of documents) every few hundred rows.
   */
  addRow(values: XlsxValue[]): void;
  /** Ends the sheet and the workbook; resolves once the file is complete on disk. */
  finish(): Promise<void>;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** A cell's value and number format: a date text as a Date (a day at UTC midnight, which is how exceljs counts days). */
export function xlsxCell(value: XlsxValue): { value: string | number | Date | null; numFmt?: string } {
  if (value instanceof Date) return { value, numFmt: DATE_TIME_FORMAT };
  if (typeof value !== 'string') return { value };
  const d = DATE.exec(value);
  if (d) {
    const date = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
    // 2024-02-30 is not a day: keep such a text as it is.
    if (date.getUTCMonth() === Number(d[2]) - 1) return { value: date, numFmt: DATE_FORMAT };
    return { value };
  }
  if (DATE_TIME.test(value)) {
    // Without a zone the time is taken as written (UTC), not as the server's local time.
    const t = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
    if (!Number.isNaN(t)) return { value: new Date(t), numFmt: DATE_TIME_FORMAT };
  }
  return { value };
}

export function createXlsxWriter(path: string, sheetName: string, header: string[]): XlsxWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  // Excel refuses sheet names over 31 characters or with : \ / ? * [ ].
  const name = sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1';
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map((h) => ({ width: Math.min(60, Math.max(10, h.length + 2)) }));
  const head = sheet.addRow(header);
  head.font = { bold: true };
  head.commit();
  return {
    addRow(values) {
      const cells = values.map(xlsxCell);
      const row = sheet.addRow(cells.map((c) => c.value));
      cells.forEach((c, i) => {
        if (c.numFmt) row.getCell(i + 1).numFmt = c.numFmt;
      });
      row.commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
