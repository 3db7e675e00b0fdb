/**
 * The indexer panel's rules for filling fields one after another (key-free extraction picks a word,
 * the panel puts it into the current field and moves on; the archive-ops spec §4 "Key-free
 * extraction"). Pure: tested in tests/editing/indexer-logic.test.ts.
 */
import { FIELD_MESSAGE_KEYS, FIELD_CODES, LOW_CONFIDENCE } from '../../fields/codes';
import { listKindOf, matchListItem } from '../../fields/lists';
import { isMultiField } from '../../fields/rules';
import { evaluateInput, isTableColumn, type EditField } from './edit-logic';

export const KEYFREE_LIST_ITEM_NOT_FOUND = 'KEYFREE_LIST_ITEM_NOT_FOUND';
/** fill() with no field left to fill. */
export const INDEXER_NO_CURRENT_FIELD = 'INDEXER_NO_CURRENT_FIELD';
export const CONFIDENCE_ERROR_KEY = FIELD_MESSAGE_KEYS[FIELD_CODES.confidenceError];

/** The fields a picked word can fill, in the panel's order: editable, not columns of a table field. */
export function fillOrder(fields: readonly EditField[], editable: (f: EditField) => boolean): EditField[] {
  return fields.filter((f) => !isTableColumn(f) && editable(f));
}

/** The field after `currentId` in the order (null after the last); the first when `currentId` is not in it. */
export function fieldAfter(order: readonly EditField[], currentId: number | null): EditField | null {
  const i = currentId === null ? -1 : order.findIndex((f) => f.ID === currentId);
  return order[i + 1] ?? null;
}

/** The current field: the chosen one (undefined: none chosen yet, the first; null or not fillable: none). */
export function currentOf(order: readonly EditField[], chosen: number | null | undefined): EditField | null {
  return chosen === undefined ? (order[0] ?? null) : (order.find((f) => f.ID === chosen) ?? null);
}

export type FillPlan =
  /** Not put into the field: the key says why. */
  | { ok: false; key: string }
  /**
   * Put into the field. `uncertain`: kept but marked with code -6. `refused`: the field's rules
   * refuse it (shown with the rule's message; the panel stays on the field).
   */
  | { ok: true; input: string | string[]; uncertain: boolean; refused: { key: string; message?: string } | null };

/**
 * What filling `field` with a picked word does. A fixed or dynamic list's known items must hold the
 * word (matched case-insensitively; the item's spelling is put); a multi-value field gets the word as
 * one more entry after `currentEntries`.
 */
export function planFill(
  field: EditField,
  word: string,
  confidence: number,
  ctx: { locale: string; listItems: readonly string[] | null; currentEntries: readonly string[] },
): FillPlan {
  let value = word.trim();
  const kind = listKindOf(field);
  if (ctx.listItems && (kind === 'fixed' || kind === 'dynamic')) {
    const hit = value === '' ? null : matchListItem(value, ctx.listItems);
    if (hit === null) return { ok: false, key: KEYFREE_LIST_ITEM_NOT_FOUND };
    value = hit;
  }
  const input = isMultiField(field) ? [...ctx.currentEntries.filter((e) => e.trim() !== ''), value] : value;
  const judged = evaluateInput(field, input, ctx.locale, ctx.listItems);
  const refused = judged.wire === null && judged.error ? { key: judged.error.key, ...(judged.error.message ? { message: judged.error.message } : {}) } : null;
  return { ok: true, input, uncertain: refused === null && confidence < LOW_CONFIDENCE, refused };
}
