/**
 * The streaming CSV scanner under every import and bulk update (issue 11 item 2): RFC 4180 over
 * text handed in chunk by chunk (src/platform/csv-reader.ts decodes a File slice by slice), with a
 * field delimiter and a string delimiter the user picks (defaults ',' and '"', the user-app spec §9).
 *
 * Nothing here keeps the file: each push() scans one chunk and gives back the rows completed in it
 * as one batch, a packed string and Int32Array offsets (no array or object a row), which cross to
 * the page as transferable buffers (ENVIRONMENT.md: a packed string beats cloning row arrays).
 * A field's offsets point into the chunk itself when it can be used as it is; a field that needs
 * work (doubled string delimiters, or a record that began in an earlier chunk) is appended once,
 * unescaped, after the chunk's text. Only the record in flight at a chunk's end is kept between
 * pushes, as its finished fields and the parts of its open field, so a field of any size is joined
 * once (no re-scan, no quadratic concatenation).
 *
 * Why not a library: Papa Parse and csv-parse both build an array per row (the memory rule forbids
 * it) and both were slower here: Papa Parse in a worker 26-141 MiB/s beside ours 110-216 in the same
 * bench/csv.mjs runs; csv-parse 8 MiB/s in Node on the string alone.
 *
 * Rules: a string delimiter opens a quoted field only as a field's first character; inside, a
 * doubled one is one character and line breaks (CRLF, LF, CR) are kept as they are; after the
 * closing one only a field delimiter or a line break may follow (else: a stray quote). Inside a
 * field that did not open with one, a string delimiter is kept as text (`5" pipe`), as Excel and
 * csv-spectrum's location_coordinates case read it. A stray quote, or a quoted field still open at
 * the end (an unclosed quote), stops the scan and names the row and column. Rows are numbered as a spreadsheet shows them (the header is row 1; blank lines
 * count as rows but give none). With strictWidth every row must have the header's width.
 */

export interface CsvDialect {
  /** One character, not a line break; default ','. */
  fieldDelimiter: string;
  /** One character, not a line break, different from the field delimiter; default '"'. */
  stringDelimiter: string;
}

export const DEFAULT_DIALECT: CsvDialect = { fieldDelimiter: ',', stringDelimiter: '"' };

export type CsvErrorCode = 'CSV_UNCLOSED_QUOTE' | 'CSV_STRAY_QUOTE' | 'CSV_TOO_MANY_FIELDS' | 'CSV_TOO_FEW_FIELDS';
/** Problems with the chosen delimiters themselves. */
export type CsvDialectCode = 'CSV_DELIMITER_ONE_CHARACTER' | 'CSV_DELIMITERS_SAME';

/** A CSV that cannot be read on: `row` and `column` are 1-based, as a spreadsheet shows them. */
export class CsvParseError extends Error {
  readonly code: CsvErrorCode;
  readonly row: number;
  readonly column: number;
  constructor(code: CsvErrorCode, row: number, column: number) {
    super(`${code} at row ${row}, column ${column}`);
    this.name = 'CsvParseError';
    this.code = code;
    this.row = row;
    this.column = column;
  }
}

/** What is wrong with a pair of delimiters, or null when they can be used. */
export function dialectProblem(d: CsvDialect): CsvDialectCode | null {
  const one = (s: string) => s.length === 1 && s !== '\n' && s !== '\r';
  if (!one(d.fieldDelimiter) || !one(d.stringDelimiter)) return 'CSV_DELIMITER_ONE_CHARACTER';
  return d.fieldDelimiter === d.stringDelimiter ? 'CSV_DELIMITERS_SAME' : null;
}

/**
 * Rows of one batch. Field f of the batch is text.slice(bounds[2f], bounds[2f + 1]); row r holds
 * fields rowStarts[r] .. rowStarts[r + 1] - 1 and is row rowNumbers[r] of the file.
 */
export interface CsvBatchData {
  text: string;
  bounds: Int32Array;
  rowStarts: Int32Array;
  rowNumbers: Int32Array;
}

export interface CsvScannerOptions extends CsvDialect {
  /** The first row is the header: kept in `columns`, not given in batches. */
  header: boolean;
  /** Every row must have the header's (or the first row's) number of fields. */
  strictWidth?: boolean;
}

const LF = 10;
const CR = 13;

/** Where the scan stands between characters, carried from one chunk to the next. */
const enum At {
  FieldStart,
  Unquoted,
  Quoted,
  /** A string delimiter was the last character seen inside a quoted field: closing, or doubled? */
  QuoteInQuoted,
  /** After a field's closing string delimiter. */
  AfterQuoted,
}

export class CsvScanner {
  /** The header row's values (header: true), once the first row is complete. */
  columns: string[] | null = null;
  /** Rows given so far (header not counted). */
  rows = 0;
  private readonly d: number;
  private readonly q: number;
  private readonly qq: string;
  private readonly q1: string;
  private readonly d1: string;
  private readonly header: boolean;
  private readonly strict: boolean;
  private width = -1;
  /** The file's row number of the record being read. */
  private row = 1;
  private state = At.FieldStart;
  /** A CR ended the last record at a chunk's end: a LF opening the next chunk belongs to it. */
  private skipLf = false;
  /** The record in flight across chunks: its finished fields, and the parts of its open field. */
  private carried: string[] | null = null;
  private parts: string[] = [];
  private partsEscaped = false;
  /** Reused between pushes; each batch gets copies of exactly its size. */
  private bounds = new Int32Array(1 << 16);
  private rowStarts = new Int32Array(1 << 12);
  private rowNumbers = new Int32Array(1 << 12);

  constructor(opts: CsvScannerOptions) {
    const problem = dialectProblem(opts);
    if (problem) throw new Error(problem);
    this.d = opts.fieldDelimiter.charCodeAt(0);
    this.q = opts.stringDelimiter.charCodeAt(0);
    this.q1 = opts.stringDelimiter;
    this.d1 = opts.fieldDelimiter;
    this.qq = opts.stringDelimiter + opts.stringDelimiter;
    this.header = opts.header;
    this.strict = Boolean(opts.strictWidth);
  }

  // Per push: the chunk and what its batch holds so far (kept on the instance so the rare paths
  // can be methods while the hot loop in push() works on locals).
  private s = '';
  private n = 0;
  private last = false;
  private nb = 0;
  private nr = 0;
  /** The current record's first field, as an index into bounds / 2. */
  private recordStart = 0;
  /** Text appended after the chunk for fields that cannot point into it. */
  private extra: string[] | null = null;
  private extraLen = 0;
  /** The end of the last complete record in the chunk: the batch's text stops there. */
  private textEnd = 0;
  /** A field of the current record was quoted (a quoted empty field is not a blank line). */
  private quotedInRecord = false;

  /**
   * Scans one chunk; `last` says the input ends with it. Gives the rows completed in it (null when
   * none). Throws CsvParseError on a broken CSV.
   */
  push(s: string, last: boolean): CsvBatchData | null {
    const n = s.length;
    const d = this.d;
    const q = this.q;
    const Q = this.q1;
    this.s = s;
    this.n = n;
    this.last = last;
    this.nb = 0;
    this.nr = 0;
    this.recordStart = 0;
    this.extra = null;
    this.extraLen = 0;
    this.textEnd = 0;
    let pos = 0;
    if (this.skipLf) {
      this.skipLf = false;
      if (n > 0 && s.charCodeAt(0) === LF) pos = 1;
    }
    let state = this.state;
    let fieldStart = pos;
    let escaped = false;
    let nb = 0;
    let bounds = this.bounds;
    let cap = bounds.length - 2;
    const D = this.d1;
    let nextD = -1;
    let nextLf = -1;
    let nextCr = -1;

    while (pos < n) {
      if (state === At.FieldStart) {
        if (s.charCodeAt(pos) === q) {
          state = At.Quoted;
          this.quotedInRecord = true;
          fieldStart = ++pos;
          continue;
        }
        fieldStart = pos;
        state = At.Unquoted;
      }
      if (state === At.Unquoted) {
        // indexOf (vectorised in V8) finds the next delimiter and line breaks; each position is
        // looked up again only once the scan has passed it. Measured here against a charCodeAt loop
        // over the same 100 MiB, alternating runs: best 291 vs 112 MiB/s.
        if (nextD < pos) {
          nextD = s.indexOf(D, pos);
          if (nextD < 0) nextD = n;
        }
        if (nextLf < pos) {
          nextLf = s.indexOf('\n', pos);
          if (nextLf < 0) nextLf = n;
        }
        if (nextCr < pos) {
          nextCr = s.indexOf('\r', pos);
          if (nextCr < 0) nextCr = n;
        }
        let i = nextD < nextLf ? nextD : nextLf;
        if (nextCr < i) i = nextCr;
        const c = i < n ? s.charCodeAt(i) : 0;
        if (i >= n) {
          pos = n;
          break;
        }
        if (this.carried === null && nb <= cap) {
          bounds[nb++] = fieldStart;
          bounds[nb++] = i;
        } else {
          this.nb = nb;
          this.slowField(fieldStart, i, false);
          nb = this.nb;
          bounds = this.bounds;
          cap = bounds.length - 2;
        }
        state = At.FieldStart;
        if (c === d) {
          pos = i + 1;
          continue;
        }
        this.nb = nb;
        this.endRecord(i);
        nb = this.nb;
        bounds = this.bounds;
        cap = bounds.length - 2;
        pos = this.afterBreak(i);
        continue;
      }
      if (state === At.Quoted) {
        const i = s.indexOf(Q, pos);
        if (i < 0) {
          pos = n;
          break;
        }
        if (i + 1 >= n) {
          // Closing or the first of a doubled pair: the next chunk says.
          pos = n;
          state = At.QuoteInQuoted;
          break;
        }
        if (s.charCodeAt(i + 1) === q) {
          escaped = true;
          pos = i + 2;
          continue;
        }
        if (this.carried === null && !escaped && nb <= cap) {
          bounds[nb++] = fieldStart;
          bounds[nb++] = i;
        } else {
          this.nb = nb;
          this.slowField(fieldStart, i, escaped);
          nb = this.nb;
          bounds = this.bounds;
          cap = bounds.length - 2;
        }
        escaped = false;
        pos = i + 1;
        state = At.AfterQuoted;
        continue;
      }
      this.nb = nb;
      if (state === At.QuoteInQuoted) {
        // The chunk before ended on a string delimiter inside a quoted field (its text is in parts).
        if (s.charCodeAt(pos) === q) {
          this.partsEscaped = true;
          this.parts.push(Q);
          fieldStart = ++pos;
          state = At.Quoted;
          continue;
        }
        this.slowField(pos, pos, false);
        nb = this.nb;
        bounds = this.bounds;
        cap = bounds.length - 2;
        state = At.AfterQuoted;
        continue;
      }
      // After a closing string delimiter.
      const c = s.charCodeAt(pos);
      if (c === d) {
        pos++;
        state = At.FieldStart;
        continue;
      }
      if (c !== LF && c !== CR) throw new CsvParseError('CSV_STRAY_QUOTE', this.row, this.fieldCount());
      this.endRecord(pos);
      nb = this.nb;
      bounds = this.bounds;
      cap = bounds.length - 2;
      pos = this.afterBreak(pos);
      state = At.FieldStart;
    }
    this.nb = nb;

    if (last) {
      if (state === At.Quoted) throw new CsvParseError('CSV_UNCLOSED_QUOTE', this.row, this.fieldCount() + 1);
      if (state === At.QuoteInQuoted) {
        // The closing string delimiter is the input's last character (or ended the chunk before).
        this.slowField(fieldStart, Math.max(fieldStart, n - 1), escaped);
        this.endRecord(n);
      } else if (state === At.Unquoted) {
        this.slowField(fieldStart, n, false);
        this.endRecord(n);
      } else if (state === At.AfterQuoted) {
        this.endRecord(n);
      } else if (this.carried || this.nb >> 1 !== this.recordStart) {
        // A field delimiter at the very end: the record ends with an empty field.
        this.slowField(n, n, false);
        this.endRecord(n);
      }
      state = At.FieldStart;
    } else if (state !== At.FieldStart || this.carried || this.nb >> 1 !== this.recordStart) {
      // A record in flight: keep its finished fields and its open field's text for the next chunk.
      if (!this.carried) {
        const carried: string[] = [];
        for (let i = this.recordStart * 2; i < this.nb; i += 2) carried.push(this.textAt(this.bounds[i]!, this.bounds[i + 1]!));
        this.carried = carried;
        this.nb = this.recordStart * 2;
      }
      if (state === At.Unquoted || state === At.Quoted || state === At.QuoteInQuoted) {
        const end = state === At.QuoteInQuoted ? n - 1 : n;
        if (fieldStart < end) this.parts.push(s.slice(fieldStart, end));
        if (escaped) this.partsEscaped = true;
      }
    }
    this.state = state;
    const nr = this.nr;
    if (nr === 0) return null;
    this.rows += nr;
    this.rowStarts[nr] = this.recordStart;
    // Set by the methods above (TypeScript sees only the reset at the top of push()).
    const extra = this.extra as string[] | null;
    const text = extra ? s + extra.join('') : s.slice(0, this.textEnd);
    this.s = '';
    return {
      text,
      bounds: this.bounds.slice(0, this.rowStarts[nr]! * 2),
      rowStarts: this.rowStarts.slice(0, nr + 1),
      rowNumbers: this.rowNumbers.slice(0, nr),
    };
  }

  private fieldCount(): number {
    return this.carried ? this.carried.length : (this.nb >> 1) - this.recordStart;
  }

  private addBounds(a: number, b: number): void {
    if (this.nb + 2 > this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[this.nb++] = a;
    this.bounds[this.nb++] = b;
  }

  private addExtra(value: string): void {
    (this.extra ??= []).push(value);
    const start = this.n + this.extraLen;
    this.extraLen += value.length;
    this.addBounds(start, start + value.length);
  }

  /** Ends a field whose text is s[a, b) (string delimiters cut off) when it cannot point into s. */
  private slowField(a: number, b: number, escaped: boolean): void {
    if (this.carried) this.carried.push(this.takeParts(a, b, this.s, escaped));
    else if (escaped) this.addExtra(this.s.slice(a, b).replaceAll(this.qq, this.q1));
    else this.addBounds(a, b);
  }

  /** Past the line break at i: where the next record starts (a CR at a chunk's end may pair with a LF). */
  private afterBreak(i: number): number {
    if (this.s.charCodeAt(i) === CR) {
      if (i + 1 < this.n) return this.s.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
      if (!this.last) this.skipLf = true;
    }
    return i + 1;
  }

  /** Ends the record; `end` is where its line break starts. */
  private endRecord(end: number): void {
    const width = this.fieldCount();
    const blank =
      width === 1 && !this.quotedInRecord && (this.carried ? this.carried[0] === '' : this.bounds[this.nb - 2] === this.bounds[this.nb - 1]);
    if (blank) {
      // A blank line: a row number, no row.
      if (this.carried) this.carried = null;
      else this.nb -= 2;
    } else {
      if (this.strict) {
        if (this.width < 0) this.width = width;
        else if (width !== this.width) {
          throw new CsvParseError(width > this.width ? 'CSV_TOO_MANY_FIELDS' : 'CSV_TOO_FEW_FIELDS', this.row, Math.min(width, this.width) + 1);
        }
      }
      if (this.carried) {
        const fields = this.carried;
        this.carried = null;
        for (const v of fields) this.addExtra(v);
      }
      if (this.header && !this.columns) {
        const cols: string[] = [];
        for (let i = this.recordStart * 2; i < this.nb; i += 2) cols.push(this.textAt(this.bounds[i]!, this.bounds[i + 1]!));
        this.columns = cols;
        this.nb = this.recordStart * 2;
      } else {
        if (this.nr + 2 > this.rowStarts.length) {
          const g = new Int32Array(this.rowStarts.length * 2);
          g.set(this.rowStarts);
          this.rowStarts = g;
          const h = new Int32Array(this.rowNumbers.length * 2);
          h.set(this.rowNumbers);
          this.rowNumbers = h;
        }
        this.rowStarts[this.nr] = this.recordStart;
        this.rowNumbers[this.nr] = this.row;
        this.nr++;
      }
    }
    this.recordStart = this.nb >> 1;
    this.quotedInRecord = false;
    this.row++;
    this.textEnd = end;
  }

  /** The open field's earlier parts joined with s[a, b), unescaped. */
  private takeParts(a: number, b: number, s: string, escaped: boolean): string {
    let v = this.parts.length ? this.parts.join('') + s.slice(a, b) : s.slice(a, b);
    if (escaped || this.partsEscaped) {
      // Parts from a QuoteInQuoted hand-over are already one character: only this chunk's text
      // and earlier parts marked escaped hold doubled delimiters.
      v = this.partsEscaped && this.parts.length ? this.unescapeParts(a, b, s, escaped) : v.replaceAll(this.qq, this.q1);
    }
    this.parts = [];
    this.partsEscaped = false;
    return v;
  }

  private unescapeParts(a: number, b: number, s: string, escaped: boolean): string {
    // Parts were pushed raw, except the single delimiter pushed for a doubled pair split over
    // chunks; raw parts may hold doubled pairs of their own. Mark the split ones apart by
    // unescaping each raw part alone.
    const out: string[] = [];
    for (const p of this.parts) out.push(p === this.q1 ? p : p.replaceAll(this.qq, this.q1));
    const tail = s.slice(a, b);
    out.push(escaped ? tail.replaceAll(this.qq, this.q1) : tail);
    return out.join('');
  }

  private textAt(a: number, b: number): string {
    if (a < this.n || a === b) return this.s.slice(a, b);
    return (this.extra ?? []).join('').slice(a - this.n, b - this.n);
  }
}

/** Reads a batch without unpacking it: one string per value asked for. */
export class CsvRows {
  constructor(readonly batch: CsvBatchData) {}
  get length(): number {
    return this.batch.rowNumbers.length;
  }
  /** The file's row number of row r (the header is row 1). */
  rowNumber(r: number): number {
    return this.batch.rowNumbers[r]!;
  }
  width(r: number): number {
    return this.batch.rowStarts[r + 1]! - this.batch.rowStarts[r]!;
  }
  /** Value of column c (0-based) in row r; '' past the row's end. */
  value(r: number, c: number): string {
    const { bounds, rowStarts, text } = this.batch;
    const f = rowStarts[r]! + c;
    if (c < 0 || f >= rowStarts[r + 1]!) return '';
    return text.slice(bounds[2 * f], bounds[2 * f + 1]);
  }
  row(r: number): string[] {
    const out: string[] = [];
    for (let c = 0, w = this.width(r); c < w; c++) out.push(this.value(r, c));
    return out;
  }
}
