/**
 * The one place where wire keys (PascalCase, as the spec writes them: Id, Name, DocLimit, and the
 * all-capitals ID, VAL, MVAL, IID) become the app's camelCase keys and back.
 *
 * To camel: a key written all in capitals becomes all lower case (ID -> id, MVAL -> mval); any
 * other key loses the capital of its first letter (DocLimit -> docLimit, ListF1 -> listF1).
 * To Pascal: the first letter is raised (docLimit -> DocLimit), except the keys in UPPER_KEYS,
 * which the spec writes all in capitals on the wire (id in a field payload is ID, not Id: callers
 * that send such payloads name those keys).
 */

type CamelKey<K extends string> = K extends Uppercase<K> ? Lowercase<K> : Uncapitalize<K>;

export type Camelize<T> = T extends readonly (infer U)[]
  ? Camelize<U>[]
  : T extends Date | Blob | ArrayBuffer
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camelize<T[K]> }
      : T;

export function camelKey(key: string): string {
  if (key.length === 0) return key;
  if (key === key.toUpperCase()) return key.toLowerCase();
  return key.charAt(0).toLowerCase() + key.slice(1);
}

export function pascalKey(key: string, upperKeys?: ReadonlySet<string>): string {
  if (upperKeys?.has(key)) return key.toUpperCase();
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

export function toCamel<T>(value: T): Camelize<T> {
  if (Array.isArray(value)) return value.map((v) => toCamel(v)) as Camelize<T>;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[camelKey(k)] = toCamel(v);
    return out as Camelize<T>;
  }
  return value as Camelize<T>;
}

/** camelCase object -> PascalCase wire object. `upperKeys` names camel keys sent all in capitals. */
export function toPascal(value: unknown, upperKeys?: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => toPascal(v, upperKeys));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[pascalKey(k, upperKeys)] = toPascal(v, upperKeys);
    return out;
  }
  return value;
}

/** Keys the spec writes all in capitals on the wire (field payloads, search detail items, licence rules). */
export const UPPER_WIRE_KEYS: ReadonlySet<string> = new Set(['id', 'val', 'mval', 'iid', 'fid']);
