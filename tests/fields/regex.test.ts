/**
 * The one matcher of field RegExes (src/fields/regex.ts): linear time on patterns that make
 * JavaScript's RegExp backtrack for seconds, JavaScript's spellings read as before, and the
 * patterns RE2 cannot check refused with their reason.
 */
import { describe, expect, it, vi } from 'vitest';
import { MAX_PROGRAM_SIZE, parseRegEx, regexProblem } from '../../src/fields/regex';
import { validateWireValue } from '../../src/fields/rules';
import { SEED_REGEXES } from '../../server/seed/catalog';

const matches = (regex: string, value: string) => parseRegEx(regex).pattern!.test(value);

describe('field RegEx matcher', () => {
  it('answers a value built to make a backtracking engine run for minutes in milliseconds', () => {
    // With RegExp, 30 characters took ~9 s and each one more doubles it; 4,000 would never end.
    for (const value of ['a'.repeat(30) + '!', 'a'.repeat(4000) + '!']) {
      const started = performance.now();
      expect(matches('^(a+)+$', value)).toBe(false);
      expect(matches('(?#Only a)^(a|aa)+$', value)).toBe(false);
      expect(matches('^(.*a){12}$', value)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1000);
    }
    expect(matches('^(a+)+$', 'aaaa')).toBe(true);
  });

  it('the grid, the workers and the server reach it through the value rules', () => {
    const field = { Type: 1, Size: 100, RegEx: '(?#Only a)^(a+)+$', ExtendedConfig: { UseRegExValidation: true } };
    const started = performance.now();
    expect(validateWireValue(field, 'a'.repeat(30) + '!')).toEqual({ code: -1, key: 'FIELD_REGEX_MISMATCH', message: 'Only a' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(validateWireValue(field, 'aaa').code).toBe(0);
  });

  it('reads JavaScript spellings as RegExp did: \\u escapes, named groups, [^], \\/, classes, anchors', () => {
    expect(matches('^caf\\u00e9$', 'café')).toBe(true);
    expect(matches('^\\u{1F600}$', '😀')).toBe(true);
    expect(matches('^(?<year>\\d{4})-\\d{2}$', '2026-12')).toBe(true);
    expect(matches('^a[^]b$', 'a\nb')).toBe(true);
    expect(matches('^\\d+\\/\\d+$', '1/2')).toBe(true);
    expect(matches('^\\p{L}+$', 'Ærø')).toBe(true);
    expect(matches('^\\p{L}+$', 'Ærø1')).toBe(false);
    // Unanchored: a match anywhere, as RegExp.test.
    expect(matches('\\d', 'ab1')).toBe(true);
    // $ is the end of the value, not before a final newline.
    expect(matches('^a$', 'a\n')).toBe(false);
  });

  it('the seed\'s patterns compile and check as before', () => {
    for (const regex of Object.values(SEED_REGEXES)) {
      expect(regexProblem(regex, 50)).toBeNull();
      expect(parseRegEx(regex).pattern).not.toBeNull();
    }
    expect(matches(SEED_REGEXES.accountCode, 'AB-1234')).toBe(true);
    expect(matches(SEED_REGEXES.accountCode, 'AB-12345')).toBe(false);
  });

  it('refuses what RE2 cannot check: backreferences and lookaround are unsupported, garbage is invalid', () => {
    for (const p of ['^(a)\\1$', '(?<n>a)\\k<n>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) expect(regexProblem(p, 50), p).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    for (const p of ['([a-', '(?#m)*a', 'a{2,1}']) expect(regexProblem(p, 50), p).toBe('CATALOGUE_REGEX_INVALID');
    expect(regexProblem('', 50)).toBeNull();
    expect(regexProblem('(?#only a message)', 50)).toBeNull();
    // A stored pattern the engine cannot use checks no value (it is refused when saved).
    expect(parseRegEx('^(a)\\1$').pattern).toBeNull();
  });

  it('refuses a program too large to check in bounded time, and one too costly for the field\'s longest value', () => {
    expect(regexProblem('(?:\\p{L}{50}|x)'.repeat(100), 10)).toBe('CATALOGUE_REGEX_UNSUPPORTED');
    expect(MAX_PROGRAM_SIZE).toBeGreaterThan(100);
    expect(regexProblem('^[a-z]{1,100}$', 50)).toBeNull();
    expect(regexProblem('^[a-z]{1,100}$', 4000)).toBeNull();
    expect(regexProblem('^(?:[a-z]{1,100}@){5}$', 4000)).toBe('CATALOGUE_REGEX_UNSUPPORTED');
  });
});

describe('the engine, loaded after the first paint on the page', () => {
  it('a pattern read before the engine is there checks no value, then checks every value once it is', async () => {
    vi.resetModules();
    // A fresh copy of the module: the engine the test setup installed is on the other copy.
    const fresh = await import('../../src/fields/regex');
    expect(fresh.regexEngineInstalled()).toBe(false);
    const { pattern } = fresh.parseRegEx('(?#Two letters)^[A-Z]{2}$');
    expect(pattern!.test('abc')).toBe(true);
    expect(fresh.regexProblem('(a)\\1', 50)).toBe('CATALOGUE_REGEX_UNSUPPORTED'); // a backreference needs no engine to refuse
    await fresh.loadRegexEngine();
    expect(fresh.regexEngineInstalled()).toBe(true);
    expect(pattern!.test('abc')).toBe(false);
    expect(pattern!.test('AB')).toBe(true);
    expect(fresh.regexProblem('^(a+)+$', 50)).toBeNull();
  });
});
