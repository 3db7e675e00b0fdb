/**
 * One value as a user typed it (a form, a CSV cell), checked by the shared field rules in the
 * user's locale and turned into its wire form (dates yyyy-mm-dd, decimals with '.'), as bulk update
 * and import send it (src/api/bulk-update.ts BulkValue). A multi-value field's values are typed
 * separated by ';', as the CSV worker reads them.
 */
import type { Field } from '../api/archives';
import type { BulkValue } from '../api/bulk-update';
import { FIELD_MESSAGE_KEYS } from './codes';
import { isMultiField, validateFieldValue } from './rules';

export interface WireValueProblem {
  field: number;
  /** The field rule's message key (FIELD_*), or the field's own key. */
  key: string;
  /** A literal message that wins over the key (a RegEx's own comment). */
  message?: string;
}

const splitMulti = (v: string): string[] => (v.trim() === '' ? [] : v.split(';').map((x) => x.trim()));

export function fieldWireValue(f: Field, typed: string, locale: string): { value: BulkValue } | { problem: WireValueProblem } {
  const multi = isMultiField(f);
  const r = validateFieldValue(f, multi ? { MVAL: splitMulti(typed) } : { VAL: typed }, locale);
  if (r.code !== 0) return { problem: { field: f.ID, key: r.key ?? FIELD_MESSAGE_KEYS[r.code], ...(r.message ? { message: r.message } : {}) } };
  return { value: multi ? { ID: f.ID, MVAL: r.normalizedMVAL ?? [] } : { ID: f.ID, VAL: r.normalized ?? '' } };
}
