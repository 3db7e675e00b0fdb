/**
 * The seam between the viewer's indexer panel and key-free extraction (the archive-ops spec §4): the
 * panel says which field a picked word fills and fills it; extraction only picks words. The panel
 * provides it through IndexerTargetContext; null when no panel is open (extraction then has nowhere
 * to put a word and says so).
 */
import { createContext, useContext } from 'react';

export type FillOutcome =
  | { ok: true; /** The field that is current now (the next one), or null after the last field. */ next: { id: number; name: string } | null }
  | { ok: false; /** A translation key: KEYFREE_LIST_ITEM_NOT_FOUND, or why the field would not take it. */ key: string };

export interface IndexerTarget {
  /** The field the next picked word fills; null when there is none (extraction stops). */
  current: { id: number; name: string } | null;
  /**
   * Fills the current field with a picked word and moves to the next field. `confidence` is the
   * recogniser's 0..100; a value below the low-confidence threshold is kept but marked with code -6.
   */
  fill(value: string, confidence: number): FillOutcome;
}

export const IndexerTargetContext = createContext<IndexerTarget | null>(null);

export function useIndexerTarget(): IndexerTarget | null {
  return useContext(IndexerTargetContext);
}
