/**
 * The stored shape of a cached grid page's documents (page-cache.ts). A 10,000-row ResultSet kept
 * as nested objects costs ~110,000 small objects that IndexedDB rebuilds on every read (75-135 ms).
 * Packed, the page is a few columns: each document property and each field's VAL is one column,
 * stored as one string joined by a separator when every value is a string without it, as a
 * Float64Array when every value is a number, else as a plain array; MVAL is one array per field,
 * only when some document has one. A page that does not fit that shape (unknown document or field
 * keys, documents whose fields are not the page's field columns in order) is stored as it came.
 *
 * Reading gives back the ResultSet with `Docs` as PackedDoc views: the document's own properties
 * are plain data properties; `Fields` is built on first use (only the row being edited, shown in
 * the history or the panel needs it). The grid reads cell text straight from the columns
 * (`cellText`), so no field object is made to paint or sort. A field's joined string is not split:
 * a value is cut out of it when read (the grid reads the ~25 rows it draws, not 10,000 x fields
 * strings that the garbage collector would then have to copy).
 */

const SEP = '\u001f';
/** Document properties kept as columns (ArchiveDocument / ResultDocument in api/search.ts). */
const META_KEYS: ReadonlySet<string> = new Set(['Id', 'Hash', 'ArchiveId', 'Archive', 'FileName', 'FileType', 'PageCount', 'InboxId', 'Permissions', 'Hits', 'Version', 'Rev', 'ThumbVersion', 'check']);
const FIELD_KEYS: ReadonlySet<string> = new Set(['ID', 'VAL', 'MVAL']);

type Column = { s: string } | { f: Float64Array } | { a: unknown[] };

export interface PackedDocs {
  v: 1;
  n: number;
  metaKeys: string[];
  meta: Column[];
  fieldIds: number[];
  vals: Column[];
  /** Per field: MVAL of each row (undefined where absent), or null when no row has one. */
  mvals: (unknown[] | null)[];
}

export const PACKED_DOCS_KEY = 'PackedDocs';

function packColumn(values: unknown[]): Column {
  let strings = true;
  let numbers = true;
  for (const v of values) {
    if (typeof v === 'string') {
      numbers = false;
      if (v.includes(SEP)) strings = false;
    } else {
      strings = false;
      if (typeof v !== 'number') numbers = false;
    }
    if (!strings && !numbers) break;
  }
  if (strings) return { s: values.join(SEP) };
  if (numbers) return { f: Float64Array.from(values as number[]) };
  return { a: values };
}

/** A field's values as stored joined: `starts[r]` is where value r begins (one past its end: starts[r + 1] - 1). */
class JoinedColumn {
  readonly #s: string;
  readonly #starts: Int32Array;

  constructor(s: string, n: number) {
    const starts = new Int32Array(n + 1);
    let at = 0;
    for (let r = 1; r < n; r++) {
      at = s.indexOf(SEP, at);
      if (at < 0) throw new Error('packed page: column length');
      starts[r] = ++at;
    }
    if (s.indexOf(SEP, at) >= 0) throw new Error('packed page: column length');
    starts[n] = s.length + 1;
    this.#s = s;
    this.#starts = starts;
  }

  at(r: number): string {
    return this.#s.slice(this.#starts[r], this.#starts[r + 1]! - 1);
  }
}

/** A column already in memory as values (numbers, or an array). */
class ValuesColumn {
  readonly #values: ArrayLike<unknown>;

  constructor(values: ArrayLike<unknown>) {
    this.#values = values;
  }

  at(r: number): unknown {
    return this.#values[r];
  }
}

type ValueColumn = JoinedColumn | ValuesColumn;

function fieldColumn(c: Column, n: number): ValueColumn {
  if ('s' in c && typeof c.s === 'string') return new JoinedColumn(c.s, n);
  return new ValuesColumn(unpackColumn(c, n));
}

function unpackColumn(c: Column, n: number): ArrayLike<unknown> {
  let out: ArrayLike<unknown>;
  if ('s' in c && typeof c.s === 'string') out = c.s.split(SEP);
  else if ('f' in c && c.f instanceof Float64Array) out = c.f;
  else if ('a' in c && Array.isArray(c.a)) out = c.a;
  else throw new Error('packed page: bad column');
  if (out.length !== n) throw new Error('packed page: column length');
  return out;
}

const isPlain = (o: unknown): o is Record<string, unknown> => !!o && typeof o === 'object' && !Array.isArray(o);

/** Packs `data.Docs` when every document fits; otherwise returns null (store the data as it is). */
export function packDocs(docs: readonly unknown[]): PackedDocs | null {
  const n = docs.length;
  if (n === 0) return null;
  const first = docs[0];
  if (!isPlain(first) || !Array.isArray(first.Fields)) return null;
  const fieldIds: number[] = [];
  for (const f of first.Fields as unknown[]) {
    if (!isPlain(f) || typeof f.ID !== 'number') return null;
    fieldIds.push(f.ID);
  }
  if (new Set(fieldIds).size !== fieldIds.length) return null;
  const metaKeys: string[] = [];
  const metaIndex = new Map<string, number>();
  const meta: unknown[][] = [];
  const vals: unknown[][] = fieldIds.map(() => new Array<unknown>(n));
  const mvals: unknown[][] = fieldIds.map(() => new Array<unknown>(n));
  const hasMval = fieldIds.map(() => false);
  for (let r = 0; r < n; r++) {
    const d = docs[r];
    if (!isPlain(d)) return null;
    for (const k in d) {
      if (!Object.prototype.hasOwnProperty.call(d, k) || k === 'Fields') continue;
      if (!META_KEYS.has(k)) return null;
      let m = metaIndex.get(k);
      if (m === undefined) {
        m = metaKeys.length;
        metaIndex.set(k, m);
        metaKeys.push(k);
        meta.push(new Array<unknown>(n).fill(undefined));
      }
      meta[m]![r] = d[k];
    }
    const fields = d.Fields;
    if (!Array.isArray(fields) || fields.length !== fieldIds.length) return null;
    for (let c = 0; c < fieldIds.length; c++) {
      const f: unknown = fields[c];
      if (!isPlain(f) || f.ID !== fieldIds[c]) return null;
      for (const k in f) if (Object.prototype.hasOwnProperty.call(f, k) && !FIELD_KEYS.has(k)) return null;
      vals[c]![r] = f.VAL;
      if (f.MVAL !== undefined) {
        mvals[c]![r] = f.MVAL;
        hasMval[c] = true;
      }
    }
  }
  return {
    v: 1,
    n,
    metaKeys,
    meta: meta.map(packColumn),
    fieldIds,
    vals: vals.map(packColumn),
    mvals: mvals.map((m, c) => (hasMval[c] ? m : null)),
  };
}

interface DecodedPage {
  fieldIds: readonly number[];
  fieldIndex: ReadonlyMap<number, number>;
  vals: ValueColumn[];
  mvals: (ArrayLike<unknown> | null)[];
}

type Field = { ID: number; VAL?: string | null; MVAL?: string[] | null };

/**
 * One document of a packed page. Its own enumerable properties are the document's (Id, Hash,
 * ArchiveId, Permissions, ...), so spreading or cloning it gives the document without Fields;
 * `Fields` is made on first use and kept; `toJSON` gives the whole document.
 */
export class PackedDoc {
  declare Id: number;
  declare Hash: string;
  declare ArchiveId?: number;
  declare Archive?: number;
  declare FileName?: string | null;
  declare FileType?: string | null;
  declare PageCount?: number;
  declare Permissions?: number;
  declare Hits?: number | null;
  declare Version?: string | null;
  declare Rev?: number;
  declare ThumbVersion?: string | null;
  #page: DecodedPage;
  #row: number;
  #fields: Field[] | undefined;

  constructor(page: DecodedPage, row: number) {
    this.#page = page;
    this.#row = row;
  }

  get Fields(): Field[] {
    if (!this.#fields) {
      const p = this.#page;
      const r = this.#row;
      this.#fields = p.fieldIds.map((ID, c) => {
        const f: Field = { ID };
        const v = p.vals[c]!.at(r);
        if (v !== undefined) f.VAL = v as string | null;
        const m = p.mvals[c]?.[r];
        if (m !== undefined) f.MVAL = m as string[] | null;
        return f;
      });
    }
    return this.#fields;
  }

  /** The grid's cell text of a field (as grid-logic.ts fieldValue), without making field objects. */
  cellText(fieldId: number): string {
    const p = this.#page;
    const c = p.fieldIndex.get(fieldId);
    if (c === undefined) return '';
    const r = this.#row;
    const m = p.mvals[c]?.[r] as readonly string[] | null | undefined;
    if (m && m.length > 0) return m.join('; ');
    return (p.vals[c]!.at(r) as string | null | undefined) ?? '';
  }

  toJSON(): Record<string, unknown> {
    return { ...(this as object), Fields: this.Fields };
  }
}

/** The documents of a packed page as PackedDoc views; throws on a malformed record. */
export function unpackDocs(p: PackedDocs): PackedDoc[] {
  const n = p.n;
  if (p.v !== 1 || !Number.isInteger(n) || n < 0) throw new Error('packed page: version');
  const page: DecodedPage = {
    fieldIds: p.fieldIds,
    fieldIndex: new Map(p.fieldIds.map((id, c) => [id, c])),
    vals: p.vals.map((c) => fieldColumn(c, n)),
    mvals: p.mvals.map((m) => {
      if (m !== null && (!Array.isArray(m) || m.length !== n)) throw new Error('packed page: MVAL column');
      return m;
    }),
  };
  const meta = p.meta.map((c) => unpackColumn(c, n));
  const keys = p.metaKeys;
  const docs = new Array<PackedDoc>(n);
  for (let r = 0; r < n; r++) {
    const d = new PackedDoc(page, r) as unknown as Record<string, unknown>;
    for (let k = 0; k < keys.length; k++) {
      const v = meta[k]![r];
      if (v !== undefined) d[keys[k]!] = v;
    }
    docs[r] = d as unknown as PackedDoc;
  }
  return docs;
}

/** The `data` to store for a page: its Docs packed when they fit, else the data as it is. */
export function packPageData(data: unknown): unknown {
  if (!isPlain(data) || !Array.isArray(data.Docs)) return data;
  const packed = packDocs(data.Docs as unknown[]);
  if (!packed) return data;
  const rest: Record<string, unknown> = {};
  for (const k in data) if (k !== 'Docs' && Object.prototype.hasOwnProperty.call(data, k)) rest[k] = data[k];
  rest[PACKED_DOCS_KEY] = packed;
  return rest;
}

/** The stored `data` as the ResultSet (Docs as PackedDoc views); unpacked data is returned as is. Throws when malformed. */
export function unpackPageData(data: unknown): unknown {
  if (!isPlain(data) || !(PACKED_DOCS_KEY in data)) return data;
  const { [PACKED_DOCS_KEY]: packed, ...rest } = data;
  return { ...rest, Docs: unpackDocs(packed as PackedDocs) };
}
