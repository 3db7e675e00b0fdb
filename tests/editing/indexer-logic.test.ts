/** The indexer panel's fill rules (src/features/editing/indexer-logic.ts): order, moving on, lists, multi-value, confidence. */
import { describe, expect, it } from 'vitest';
import type { EditField } from '../../src/features/editing/edit-logic';
import { LOW_CONFIDENCE } from '../../src/fields/codes';
import { KEYFREE_LIST_ITEM_NOT_FOUND, fieldAfter, fillOrder, planFill } from '../../src/features/editing/indexer-logic';

const F = {
  title: { ID: 1, Name: 'Title', Type: 1, Size: 100, Prop: 2 },
  number: { ID: 2, Name: 'Invoice Number', Type: 2, Size: 19 },
  department: { ID: 5, Name: 'Department', Type: 1, Prop: 64, List: 1 },
  customer: { ID: 6, Name: 'Customer', Type: 1, List: 2 },
  city: { ID: 9, Name: 'City', Type: 1, Prop: 128, List: 3 },
  tags: { ID: 10, Name: 'Tags', Type: 1, Size: 30, Prop: 32, MultiValue: true },
  indexedBy: { ID: 12, Name: 'Indexed By', Type: 1, Prop: 8 },
  item: { ID: 20, Name: 'Item', Type: 1, Parent: 1, MultiValue: true },
} satisfies Record<string, EditField>;
const ctx = { locale: 'en-US', listItems: null, currentEntries: [] };

describe('fill order', () => {
  const all = Object.values(F) as EditField[];
  const order = fillOrder(all, (f) => f.ID !== F.indexedBy.ID);
  it('takes the editable fields in the panel order, without table columns', () => {
    expect(order.map((f) => f.Name)).toEqual(['Title', 'Invoice Number', 'Department', 'Customer', 'City', 'Tags']);
  });
  it('moves to the next field, starts at the first, and ends after the last', () => {
    expect(fieldAfter(order, null)?.Name).toBe('Title');
    expect(fieldAfter(order, F.number.ID)?.Name).toBe('Department');
    expect(fieldAfter(order, F.tags.ID)).toBeNull();
    expect(fieldAfter(order, 999)?.Name).toBe('Title');
  });
});

describe('planFill', () => {
  it('puts a word into a text field, certain at or above the threshold', () => {
    expect(planFill(F.title, '  ACME  ', LOW_CONFIDENCE, ctx)).toEqual({ ok: true, input: 'ACME', uncertain: false, refused: null });
  });
  it('keeps a low-confidence word but marks it uncertain', () => {
    expect(planFill(F.title, 'ACME', LOW_CONFIDENCE - 1, ctx)).toEqual({ ok: true, input: 'ACME', uncertain: true, refused: null });
  });
  it("gives KEYFREE_LIST_ITEM_NOT_FOUND for a word a fixed or dynamic list's items do not hold, and takes the item's spelling", () => {
    const items = ['Sales', 'Finance'];
    expect(planFill(F.department, 'Marketing', 99, { ...ctx, listItems: items })).toEqual({ ok: false, key: KEYFREE_LIST_ITEM_NOT_FOUND });
    expect(planFill(F.city, 'Paris', 99, { ...ctx, listItems: ['Berlin'] })).toEqual({ ok: false, key: KEYFREE_LIST_ITEM_NOT_FOUND });
    expect(planFill(F.department, 'finance', 99, { ...ctx, listItems: items })).toEqual({ ok: true, input: 'Finance', uncertain: false, refused: null });
  });
  it('lets a type-ahead list field take any word (its list only suggests)', () => {
    expect(planFill(F.customer, 'Someone New', 99, ctx)).toMatchObject({ ok: true, input: 'Someone New', refused: null });
  });
  it('adds the word as one more entry of a multi-value field', () => {
    expect(planFill(F.tags, 'urgent', 90, { ...ctx, currentEntries: ['a', '', 'b'] })).toEqual({ ok: true, input: ['a', 'b', 'urgent'], uncertain: false, refused: null });
  });
  it("puts a word the field's rules refuse, with the rule's message, never marked uncertain instead", () => {
    const r = planFill(F.number, 'INV-12', 10, ctx);
    expect(r).toMatchObject({ ok: true, input: 'INV-12', uncertain: false, refused: { key: 'FIELD_INVALID_NUMBER' } });
  });
});
