/**
 * The prompts of a saved search as the form shows them (the user-app spec §3 Search detail item;
 * the archive-ops spec §3: detail items with the same prompt text are collapsed into one input that
 * feeds all their IDs).
 */
import { CONTENT_SEARCH_TYPE, type SearchCondition, type SearchDetailItem } from '../../api/search';
import { FIELD_PROPS } from '../../api/archives';

export type ValueType = 'content' | 'text' | 'number' | 'date' | 'decimal';
/** How the value is entered: one value, a from/to pair, several values, or a condition needing none. */
export type PromptControl = 'single' | 'range' | 'multi' | 'check';
/** Where suggestions come from: none, a fixed list (Prop 64), a type-ahead list, a dynamic list (Prop 128). */
export type PromptList = 'none' | 'fixed' | 'typeahead' | 'dynamic';

export interface Prompt {
  /** Stable key of the input in the form. */
  key: string;
  /** Every detail-item ID this input feeds (more than one when duplicates were collapsed). */
  ids: number[];
  /** Field id (FID); 0 for the content-search prompt. */
  fieldId: number;
  /** The prompt text; empty for a content-search prompt without one. */
  label: string;
  valueType: ValueType;
  control: PromptControl;
  list: PromptList;
  listId: number | null;
  condition: SearchCondition;
  mask: string | null;
  /** The saved defaults (wire format). */
  defaultVal: string | null;
  defaultMval: string[] | null;
}

const TYPES: Record<number, ValueType> = { [CONTENT_SEARCH_TYPE]: 'content', 1: 'text', 2: 'number', 3: 'date', 4: 'decimal' };

/** One detail item to the form's model (without collapsing). */
export function toPrompt(item: SearchDetailItem): Prompt {
  const fieldId = item.FID ?? 0;
  const type = item.Type ?? 1;
  const prop = item.Prop ?? 0;
  const listId = item.ListID ?? null;
  const condition = item.Condition ?? 'Contains';
  const valueType: ValueType = fieldId === 0 && type === CONTENT_SEARCH_TYPE ? 'content' : (TYPES[type] ?? 'text');
  const control: PromptControl =
    condition === 'IsEmpty' || condition === 'IsNotEmpty' ? 'check' : condition === 'Range' ? 'range' : prop & FIELD_PROPS.multiValue ? 'multi' : 'single';
  let list: PromptList = 'none';
  if (valueType !== 'content' && control !== 'check') {
    if (prop & FIELD_PROPS.dynamicDropdown) list = 'dynamic';
    else if (listId !== null && listId > 0) list = prop & FIELD_PROPS.dropdownList ? 'fixed' : 'typeahead';
  }
  return {
    key: `p${item.ID}`,
    ids: [item.ID],
    fieldId,
    label: (item.Prompt ?? '').trim(),
    valueType,
    control,
    list,
    listId: listId !== null && listId > 0 ? listId : null,
    condition,
    mask: item.Mask ?? null,
    defaultVal: item.VAL ?? null,
    defaultMval: item.MVAL ?? null,
  };
}

/** The detail items as inputs: items with the same (non-empty) prompt text share the first one's input. */
export function collapsePrompts(items: readonly SearchDetailItem[]): Prompt[] {
  const out: Prompt[] = [];
  const byLabel = new Map<string, Prompt>();
  for (const item of items) {
    const p = toPrompt(item);
    const existing = p.label !== '' ? byLabel.get(p.label) : undefined;
    if (existing) {
      existing.ids.push(item.ID);
      continue;
    }
    if (p.label !== '') byLabel.set(p.label, p);
    out.push(p);
  }
  return out;
}

/** The prompt whose field is `fieldId` (a dynamic list's ListF1 / ListF2), if the search has one. */
export function promptForField(prompts: readonly Prompt[], fieldId: number | null | undefined): Prompt | undefined {
  if (!fieldId) return undefined;
  return prompts.find((p) => p.fieldId === fieldId);
}
