/**
 * List-backed fields (the archive-ops spec §3 "Field Prop bits", §4 "Dynamic lists", §5; the user-app spec
 * §5 "A dropdown value is cleared if not in the refreshed dependent list"). Pure: no fetching here.
 *
 * - fixed (Prop 64): a drop-down of the whole list;
 * - dynamic (Prop 128): a drop-down whose items depend on the values of two other fields of the
 *   same document (ListF1, ListF2), fetched with Filter1/Filter2 (GET api/indexes);
 * - type-ahead (a List without 64 or 128): suggestions as the user types, at most 100
 *   (TEXT_COMPLETE_MAX); "a user-typed list value must match a list item", so a value outside the
 *   list is refused (the server's check of POST api/indexes answers it).
 */
import type { Field } from '../api/archives';

export type ListKind = 'fixed' | 'dynamic' | 'typeahead';

type ListField = Pick<Field, 'ID'> & Partial<Pick<Field, 'Prop' | 'List' | 'ListF1' | 'ListF2'>>;

const FIXED = 64;
const DYNAMIC = 128;

/** The kind of list a field edits with, or null for a field without a list. Prop 128 wins over 64. */
export function listKindOf(f: Pick<ListField, 'Prop' | 'List'>): ListKind | null {
  if (!f.List) return null;
  const prop = f.Prop ?? 0;
  if (prop & DYNAMIC) return 'dynamic';
  if (prop & FIXED) return 'fixed';
  return 'typeahead';
}

/** The parent field ids of a dynamic list (0 and null: none). */
export function dynamicParents(f: Pick<ListField, 'ListF1' | 'ListF2'>): { f1: number | null; f2: number | null } {
  return { f1: f.ListF1 && f.ListF1 > 0 ? f.ListF1 : null, f2: f.ListF2 && f.ListF2 > 0 ? f.ListF2 : null };
}

/** The dynamic-list fields whose list depends on field `changedId`. */
export function dynamicDependents<F extends ListField>(fields: readonly F[], changedId: number): F[] {
  return fields.filter((f) => {
    if (listKindOf(f) !== 'dynamic') return false;
    const p = dynamicParents(f);
    return p.f1 === changedId || p.f2 === changedId;
  });
}

/** Filter1/Filter2 of a dynamic list from the document's current values (`valueOf` a field id). */
export function dynamicFilters(f: Pick<ListField, 'ListF1' | 'ListF2'>, valueOf: (fieldId: number) => string): { filter1: string; filter2: string } {
  const p = dynamicParents(f);
  return { filter1: p.f1 === null ? '' : valueOf(p.f1).trim(), filter2: p.f2 === null ? '' : valueOf(p.f2).trim() };
}

/**
 * A list item equal to `value` (case-insensitively; the list's spelling wins), or null when the
 * list does not hold it. '' stays ''.
 */
export function matchListItem(value: string, items: readonly string[]): string | null {
  const v = value.trim();
  if (v === '') return '';
  if (items.includes(v)) return v;
  const low = v.toLowerCase();
  return items.find((i) => i.toLowerCase() === low) ?? null;
}

/**
 * The value of a dynamic-list field after its list was refreshed (the archive-ops spec §4): kept
 * when the list holds it, cleared ('') when it does not, also when the list ends up with no items.
 */
export function keepInRefreshedList(value: string, items: readonly string[]): { value: string; cleared: boolean } {
  const hit = matchListItem(value, items);
  if (hit === null) return { value: '', cleared: true };
  return { value: hit, cleared: false };
}

/** Items containing `text` (case-insensitively), those starting with it first, at most `max`. */
export function filterItems(items: readonly string[], text: string, max: number): string[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return items.slice(0, max);
  const starts: string[] = [];
  const contains: string[] = [];
  for (const v of items) {
    const l = v.toLowerCase();
    if (l.startsWith(needle)) starts.push(v);
    else if (l.includes(needle)) contains.push(v);
  }
  return [...starts, ...contains].slice(0, max);
}
