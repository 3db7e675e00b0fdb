/**
 * Field validity codes (the archive-ops spec §4; the user-app spec §5 "field update check codes") and the
 * i18n keys of their messages. The keys are what the grid, the worker and the server hand around;
 * the English texts live in the app's language files.
 */

export const FIELD_CODES = {
  valid: 0,
  /** Invalid integer or decimal; also a RegEx mismatch and a value missing from a fixed list (see rules.ts). */
  invalidNumber: -1,
  invalidDate: -2,
  tooLong: -3,
  /** Only the server knows: the field is not one of the archive's fields. */
  notFound: -4,
  required: -5,
  /** Set by data extraction (key-free indexing), never by these rules. */
  confidenceError: -6,
} as const;

export type FieldCode = (typeof FIELD_CODES)[keyof typeof FIELD_CODES];

/**
 * Below this recogniser confidence (0..100) a value filled by key-free extraction is kept but marked
 * uncertain (confidenceError, -6), and its word is drawn dashed over the page.
 */
export const LOW_CONFIDENCE = 60;

export const FIELD_MESSAGE_KEYS = {
  [-1]: 'FIELD_INVALID_NUMBER',
  [-2]: 'FIELD_INVALID_DATE',
  [-3]: 'FIELD_TOO_LONG',
  [-4]: 'FIELD_NOT_FOUND',
  [-5]: 'FIELD_REQUIRED',
  [-6]: 'FIELD_CONFIDENCE_ERROR',
} as const satisfies Record<Exclude<FieldCode, 0>, string>;

/** Code -1 keys for the failures that are not about numbers; a RegEx comment message wins over its key. */
export const FIELD_REGEX_MISMATCH_KEY = 'FIELD_REGEX_MISMATCH';
export const FIELD_NOT_IN_LIST_KEY = 'FIELD_NOT_IN_LIST';
/** Code -1 key of a number or decimal outside its field's ExtendedConfig Min/Max (wire form: input is clamped instead). */
export const FIELD_OUT_OF_RANGE_KEY = 'FIELD_OUT_OF_RANGE';

/** Every message key a field check can return (one list, so a new key cannot miss its texts). */
export const ALL_FIELD_MESSAGE_KEYS = [...Object.values(FIELD_MESSAGE_KEYS), FIELD_REGEX_MISMATCH_KEY, FIELD_NOT_IN_LIST_KEY, FIELD_OUT_OF_RANGE_KEY] as const;
export type FieldMessageKey = (typeof ALL_FIELD_MESSAGE_KEYS)[number];

export const fieldMessageKey = (code: Exclude<FieldCode, 0>): FieldMessageKey => FIELD_MESSAGE_KEYS[code];
