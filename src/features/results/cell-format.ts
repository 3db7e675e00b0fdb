/**
 * What a field cell shows: dates, numbers and decimals through the field's Mask, or in the locale's
 * form (src/fields formatWireValue), the same text an edited cell shows. The grid's data keeps the
 * wire values (sorting, editing and the cache work on those). Multi-value cells hold their values
 * joined by '; ' and are formatted value by value.
 *
 * The grid formats a cell at every render (each scroll step re-renders ~250 cells) and a masked
 * value builds an Intl formatter, so each formatter remembers the texts it made, per field, up to
 * FORMAT_CACHE_LIMIT values (then it starts over).
 */
import { FIELD_TYPES } from '../../api/archives';
import { formatWireValue } from '../../fields/masks';
import type { FieldRule } from '../../fields/rules';

export const FORMAT_CACHE_LIMIT = 20_000;

export function cellFormatter(fields: readonly unknown[], locale: string): (fieldId: number, value: string) => string {
  const byId = new Map<number, { rule: FieldRule; made: Map<string, string> }>();
  for (const f of fields) {
    if (!f || typeof f !== 'object') continue;
    const o = f as { ID?: unknown; Type?: unknown; Mask?: unknown; Currency?: unknown };
    if (typeof o.ID !== 'number' || typeof o.Type !== 'number') continue;
    const rule: FieldRule = { Type: o.Type, Mask: typeof o.Mask === 'string' ? o.Mask : null, Currency: typeof o.Currency === 'string' ? o.Currency : null };
    byId.set(o.ID, { rule, made: new Map() });
  }
  return (fieldId, value) => {
    const field = byId.get(fieldId);
    if (!field || field.rule.Type === FIELD_TYPES.character || value === '') return value;
    const hit = field.made.get(value);
    if (hit !== undefined) return hit;
    const text = value
      .split('; ')
      .map((v) => formatWireValue(field.rule, v, locale))
      .join('; ');
    if (field.made.size >= FORMAT_CACHE_LIMIT) field.made.clear();
    field.made.set(value, text);
    return text;
  };
}
