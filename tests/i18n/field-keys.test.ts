import { describe, expect, it } from 'vitest';
import en from '../../public/languages/en.json';
import type { TranslationKey } from '../../src/i18n/resources';
import { ALL_FIELD_MESSAGE_KEYS } from '../../src/fields/codes';

describe('field validity messages', () => {
  it('every key the field rules return is an English text (and a typed key)', () => {
    // Typed: a key the rules add without an English text fails the typecheck here.
    const keys: readonly TranslationKey[] = ALL_FIELD_MESSAGE_KEYS;
    expect(keys).toContain('FIELD_OUT_OF_RANGE');
    for (const k of keys) expect((en as Record<string, string>)[k], k).toMatch(/\S/);
  });
});
