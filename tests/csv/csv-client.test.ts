import { expose } from 'comlink';
import { describe, expect, it } from 'vitest';
import { csvWorkerApi } from '../../workers/csv.worker';
import { CsvParseError } from '../../src/platform/csv-parse';
import { CsvFile, csvLine } from '../../src/platform/csv';
import type { FieldRule } from '../../src/fields/rules';

/** The worker's API over a real MessageChannel (structured cloning and transfers included). */
function worker() {
  const { port1, port2 } = new MessageChannel();
  expose(csvWorkerApi, port2 as unknown as Parameters<typeof expose>[1]);
  return {
    endpoint: port1 as unknown as Parameters<typeof CsvFile.open>[2] extends { worker?: () => { endpoint: infer E } } | undefined ? E : never,
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
}

const file = (text: string) => new Blob([text]);

describe('CsvFile over the worker API', () => {
  it('opens: header and an estimate; exact for a small file', async () => {
    const csv = await CsvFile.open(file('\ufeffDocumentID;Title\n1;"a;b"\n2;c\n'), { fieldDelimiter: ';' }, { worker });
    expect(csv.columns).toEqual(['DocumentID', 'Title']);
    expect(csv.estimatedRows).toBe(2);
    expect(csv.opened.exact).toBe(true);
    csv.close();
  });

  it('reads a UTF-16 file by its byte-order mark, and a windows-1252 file when told', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(Buffer.from('name;ü\n"a;b";ö\n', 'utf16le'))]);
    const a = await CsvFile.open(new Blob([utf16]), { fieldDelimiter: ';' }, { worker });
    expect(a.columns).toEqual(['name', 'ü']);
    const rows: string[][] = [];
    await a.scan((b) => {
      for (let r = 0; r < b.length; r++) rows.push(b.row(r));
    });
    expect(rows).toEqual([['a;b', 'ö']]);
    a.close();
    const latin = await CsvFile.open(new Blob([new Uint8Array([0x4e, 0xe4, 0x6d, 0x65, 0x0a, 0x31, 0x0a])]), { encoding: 'windows-1252' }, { worker });
    expect(latin.columns).toEqual(['Näme']);
    latin.close();
  });

  it('estimates the rows of a file larger than its first MiB', async () => {
    const lines = ['id,v'];
    for (let i = 0; i < 200_000; i++) lines.push(`${i},value ${i}`);
    const csv = await CsvFile.open(file(lines.join('\n')), {}, { worker });
    expect(csv.opened.exact).toBe(false);
    expect(Math.abs(csv.estimatedRows - 200_000)).toBeLessThan(20_000);
    csv.close();
  });

  it('scans in batches across chunks with progress, values transferred intact', async () => {
    const lines = ['id,text'];
    for (let i = 0; i < 3000; i++) lines.push(`${i},"line ${i}\nwith ""quotes"", and commas"`);
    const csv = await CsvFile.open(file(lines.join('\r\n')), { chunkSize: 4096 }, { worker });
    const seen: string[] = [];
    let batches = 0;
    let lastProgress = 0;
    const done = await csv.scan(
      (rows) => {
        batches++;
        for (let r = 0; r < rows.length; r++) seen.push(`${rows.rowNumber(r)}:${rows.value(r, 0)}:${rows.value(r, 1)}`);
      },
      { onProgress: (p) => (lastProgress = p.bytesRead / p.totalBytes) },
    );
    expect(done.rows).toBe(3000);
    expect(batches).toBeGreaterThan(1);
    expect(lastProgress).toBe(1);
    expect(seen[0]).toBe('2:0:line 0\nwith "quotes", and commas');
    expect(seen[2999]).toBe('3001:2999:line 2999\nwith "quotes", and commas');
    csv.close();
  });

  it('a broken CSV rejects with the row and column', async () => {
    const csv = await CsvFile.open(file('a,b\n1,2\n3,"open\n'), {}, { worker });
    const e = await csv.scan(() => undefined).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CsvParseError);
    expect(e).toMatchObject({ code: 'CSV_UNCLOSED_QUOTE', row: 3, column: 2 });
    csv.close();
  });

  it('strict width stops at the first row of another width', async () => {
    const csv = await CsvFile.open(file('a,b\n1,2\n1,2,3\n'), { strictWidth: true }, { worker });
    await expect(csv.scan(() => undefined)).rejects.toMatchObject({ code: 'CSV_TOO_MANY_FIELDS', row: 3, column: 3 });
    csv.close();
  });

  it('is cancelled by its AbortSignal', async () => {
    // Node's Blob streams one chunk per part (a browser's File streams in pieces of its own).
    const parts = ['id\n'];
    for (let p = 0; p < 200; p++) parts.push(Array.from({ length: 10_000 }, (_, i) => String(p * 10_000 + i)).join('\n') + '\n');
    const csv = await CsvFile.open(new Blob(parts), { chunkSize: 1024 }, { worker });
    const ac = new AbortController();
    let rows = 0;
    const e = await csv
      .scan(
        (b) => {
          rows += b.length;
          if (rows > 1000) ac.abort();
        },
        { signal: ac.signal },
      )
      .catch((x: unknown) => x);
    expect((e as Error).name).toBe('AbortError');
    expect(rows).toBeLessThan(2_000_000);
    // The file can be read again after a cancelled scan.
    expect((await csv.scan(() => undefined)).rows).toBe(2_000_000);
    csv.close();
  });

  it('an abort while opening ends the worker and rejects at once', async () => {
    let ended = false;
    const silent = () => ({ endpoint: new MessageChannel().port1 as unknown as ReturnType<typeof worker>['endpoint'], terminate: () => (ended = true) });
    const ac = new AbortController();
    const opening = CsvFile.open(file('a\n1\n'), {}, { worker: silent, signal: ac.signal });
    ac.abort();
    await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
    expect(ended).toBe(true);
  });

  it('validates mapped columns with the field rules and writes the refused rows to an error file', async () => {
    const fields: Record<string, FieldRule> = {
      date: { ID: 3, Type: 3 },
      amount: { ID: 4, Type: 4, Size: 6 },
      title: { ID: 1, Type: 1, Size: 5, Prop: 2 },
    };
    const text = ['DocumentID;Date;Amount;Title', '1;2026-03-04;12.50;ok', '2;2026-13-40;1;ok', '3;2026-01-01;abc;"x;y"', '4;2026-01-01;1;', '5;2026-01-01', '6;2026-01-01;1;toolongtitle'].join('\n');
    const csv = await CsvFile.open(file(text), { fieldDelimiter: ';' }, { worker });
    const result = await csv.validate(
      [
        { column: 1, field: fields.date! },
        { column: 2, field: fields.amount! },
        { column: 3, field: fields.title! },
      ],
      { locale: null },
    );
    expect(result.rows).toBe(6);
    expect(result.refusedRows).toBe(5);
    expect(result.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [3, 2, 'FIELD_INVALID_DATE'],
      [4, 3, 'FIELD_INVALID_NUMBER'],
      [5, 4, 'FIELD_REQUIRED'],
      [6, 3, 'CSV_TOO_FEW_FIELDS'],
      [7, 4, 'FIELD_TOO_LONG'],
    ]);
    const blob = result.errorFile((p) => `${p.key} (row ${p.row}, column ${p.column})`, 'Reason');
    expect(await blob!.text()).toBe(
      [
        'DocumentID;Date;Amount;Title;Reason',
        '2;2026-13-40;1;ok;FIELD_INVALID_DATE (row 3, column 2)',
        '3;2026-01-01;abc;"x;y";FIELD_INVALID_NUMBER (row 4, column 3)',
        '4;2026-01-01;1;;FIELD_REQUIRED (row 5, column 4)',
        '5;2026-01-01;CSV_TOO_FEW_FIELDS (row 6, column 3)',
        '6;2026-01-01;1;toolongtitle;FIELD_TOO_LONG (row 7, column 4)',
        '',
      ].join('\r\n'),
    );
    csv.close();
  });

  it('validates values as typed in a locale, multi-values one by one', async () => {
    const csv = await CsvFile.open(file('d,m\n04.03.2026,1; 2\n40.03.2026,1;x\n'), {}, { worker });
    const r = await csv.validate(
      [
        { column: 0, field: { ID: 3, Type: 3, Mask: 'dd.MM.yyyy' } },
        { column: 1, field: { ID: 9, Type: 2, MultiValue: true } },
      ],
      { locale: 'de-DE' },
    );
    expect(r.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [3, 1, 'FIELD_INVALID_DATE'],
      [3, 2, 'FIELD_INVALID_NUMBER'],
    ]);
    expect(await r.errorFile(() => 'bad', 'Grund')!.text()).toBe('d,m,Grund\r\n40.03.2026,1;x,bad; bad\r\n');
    csv.close();
  });

  it('writes values that need it between string delimiters', () => {
    expect(csvLine(['a', "b'c", 'd\ne', 'f\tg'], { fieldDelimiter: '\t', stringDelimiter: "'" })).toBe("a\t'b''c'\t'd\ne'\t'f\tg'\r\n");
  });
});
