import { FIELD_TYPES } from '../api/archives';

/**
 * What names a document to a person (a history's heading beside its archive and id, a selection, a
 * job): its first character field with a value, in column order (a title, a customer), else its
 * file name. '' when neither.
 */
export function documentLabelOf(
  doc: { FileName?: string | null; Fields: readonly { ID: number; VAL?: string | null }[] },
  /** The result set's FieldList (as cached: read defensively). */
  fields: readonly unknown[],
): string {
  const values = new Map(doc.Fields.map((f) => [f.ID, (f.VAL ?? '').trim()]));
  for (const f of fields) {
    const o = (f ?? {}) as { ID?: unknown; Type?: unknown };
    if (o.Type !== FIELD_TYPES.character || typeof o.ID !== 'number') continue;
    const v = values.get(o.ID);
    if (v) return v;
  }
  return doc.FileName?.trim() ?? '';
}
