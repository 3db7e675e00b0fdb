import { describe, expect, it } from 'vitest';
import en from '../../public/languages/en.json';
import type { TranslationKey } from '../../src/i18n/resources';
import { FIELD_MESSAGE_KEYS, FIELD_NOT_IN_LIST_KEY, FIELD_REGEX_MISMATCH_KEY } from '../../src/fields/codes';

describe('field validity messages', () => {
  it('every key the field rules return is an English text (and a typed key)', () => {
    // Typed: a key the rules add without an English text fails the typecheck here.
    const keys: TranslationKey[] = [...Object.values(FIELD_MESSAGE_KEYS), FIELD_REGEX_MISMATCH_KEY, FIELD_NOT_IN_LIST_KEY];
    for (const k of keys) expect((en as Record<string, string>)[k], k).toMatch(/\S/);
  });
});
