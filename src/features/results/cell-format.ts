/**
 * What a field cell shows: dates, numbers and decimals through the field's Mask, or in the locale's
 * form (src/fields formatWireValue), the same text an edited cell shows. The grid's data keeps the
 * wire values (sorting, editing and the cache work on those). Multi-value cells hold their values
 * joined by '; ' and are formatted value by value.
 */
import { FIELD_TYPES } from '../../api/archives';
import { formatWireValue } from '../../fields/masks';
import type { FieldRule } from '../../fields/rules';

export function cellFormatter(fields: readonly unknown[], locale: string): (fieldId: number, value: string) => string {
  const byId = new Map<number, FieldRule>();
  for (const f of fields) {
    if (!f || typeof f !== 'object') continue;
    const o = f as { ID?: unknown; Type?: unknown; Mask?: unknown };
    if (typeof o.ID !== 'number' || typeof o.Type !== 'number') continue;
    byId.set(o.ID, { Type: o.Type, Mask: typeof o.Mask === 'string' ? o.Mask : null });
  }
  return (fieldId, value) => {
    const field = byId.get(fieldId);
    if (!field || field.Type === FIELD_TYPES.character || value === '') return value;
    return value
      .split('; ')
      .map((v) => formatWireValue(field, v, locale))
      .join('; ');
  };
}
