/**
 * Key-free extraction's rules (the archive-ops spec §4 "Key-free extraction", §8, §9), without React:
 * it toggles on and off; on start the words of the shown page are loaded once the page has been shown
 * for 1.5 s (KEYFREE_DEBOUNCE_MS; the thumbnails' dwell tracker with this delay); picking a word fills
 * the indexer's current field and moves to the next; it stops after the last field, and on an error
 * (the page's words cannot be read). A picked word the field refuses (KEYFREE_LIST_ITEM_NOT_FOUND: it
 * matches no item of the field's list) is said and extraction stays on, for the user to pick another.
 */
import { isApiError } from '../../../api/api-error';
import { KEYFREE_KEYS, type KeyFreeWord, type PageWords } from '../../../api/words';
import type { IndexerTarget } from '../indexer-target';

export const KEYFREE_DEBOUNCE_MS = 1500;

/** A message for the user: a translation key and its values. */
export interface KeyFreeNotice {
  key: string;
  values?: Record<string, string>;
  /** An error (said assertively), not news. */
  error?: boolean;
}

export interface PickResult {
  /** Extraction goes on (false: it stopped). */
  active: boolean;
  notice: KeyFreeNotice | null;
}

/** What picking `word` does with the indexer's target. */
export function pickWord(target: IndexerTarget | null, word: Pick<KeyFreeWord, 'Value' | 'Confidence'>): PickResult {
  if (!target) return { active: false, notice: { key: 'KEYFREE_NEEDS_INDEXER', error: true } };
  if (!target.current) return { active: false, notice: { key: 'KEYFREE_FINISHED' } };
  const field = target.current.name;
  const outcome = target.fill(word.Value, word.Confidence);
  if (!outcome.ok) return { active: true, notice: { key: outcome.key, values: { field, word: word.Value }, error: true } };
  if (outcome.next === null) return { active: false, notice: { key: 'KEYFREE_FINISHED' } };
  return { active: true, notice: null };
}

/** What turning extraction on says, or why it cannot start. */
export function startNotice(target: IndexerTarget | null): KeyFreeNotice | null {
  if (!target) return { key: 'KEYFREE_NEEDS_INDEXER', error: true };
  if (!target.current) return { key: 'KEYFREE_FINISHED' };
  return null;
}

/** The words of a loaded page, or the error that stops extraction (ERROR_NO_KFI_WORDS for a page without words). */
export function wordsOutcome(page: PageWords): { words: KeyFreeWord[] } | { error: KeyFreeNotice } {
  if (page.Words.length === 0) return { error: { key: KEYFREE_KEYS.noWords, error: true } };
  return { words: page.Words };
}

/** The notice for a failed load: the catalogue's key when the server gave one we know, else the server's message. */
export function loadErrorNotice(e: unknown): KeyFreeNotice {
  if (isApiError(e)) {
    if (e.key === KEYFREE_KEYS.notRegistered) return { key: KEYFREE_KEYS.notRegistered, error: true };
    if (e.kind === 'network') return { key: 'KEYFREE_OFFLINE', error: true };
    return { key: 'KEYFREE_LOAD_FAILED', values: { message: e.message }, error: true };
  }
  return { key: 'KEYFREE_LOAD_FAILED', values: { message: e instanceof Error ? e.message : String(e) }, error: true };
}
