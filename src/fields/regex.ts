/**
 * A field's RegEx (`(?#message)pattern`, the console spec §5), matched by one engine wherever a value
 * is checked: the grid, the validation and CSV workers, and the server (PUT FieldData, POST indexes,
 * new documents, import, bulk update all reach validateFieldValue in rules.ts, which calls
 * fieldPattern here).
 *
 * The engine is re2js, a JavaScript port of RE2: it matches in time linear in the value's length, so
 * no pattern can make one value run for seconds. JavaScript's own RegExp backtracks: `^(a+)+$` took
 * 9 s on 30 characters and doubles with each one, and on the server that held every other request.
 * RE2 has no backreferences (`\1`, `\k<name>`) and no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`):
 * a pattern that needs them is refused when the field is saved (CATALOGUE_REGEX_UNSUPPORTED), as is
 * one whose cost (RE2's program size times the longest value the field holds) is over
 * MAX_MATCH_COST, because linear time with a huge program is still slow. A pattern neither engine
 * reads is CATALOGUE_REGEX_INVALID. A stored pattern that the engine cannot use (one saved before
 * these checks) checks no value, rather than refusing every value.
 *
 * The engine (re2js, ~46 KB gzip) is not imported here but installed: the server and the workers
 * that check values install it as they start (regex-engine.ts). On the page it loads as a chunk of
 * its own once a screen that checks values (results, inbox, viewer, console) loads this module, so
 * neither those screens' first chunk nor the screens that check nothing (sign-in, databases,
 * search) carry it. Until it is there a pattern checks no value and says no problem; the server,
 * which always has it, still checks every value.
 */
import type { RE2JS } from 're2js';

let engine: typeof RE2JS | null = null;
let loading: Promise<void> | null = null;

/** Makes `re2js` the engine (server and workers, at start; the page once its chunk has loaded). */
export function installRegexEngine(e: typeof RE2JS): void {
  engine = e;
  cache.clear();
}

/** Loads the engine as a chunk of its own (the page, when this module loads); once. */
export function loadRegexEngine(): Promise<void> {
  loading ??= import('re2js').then((m) => installRegexEngine(m.RE2JS));
  return loading;
}

export const regexEngineInstalled = (): boolean => engine !== null;

// The page: start loading the engine now, beside the screen that needs it.
// (`document` through globalThis: this module is built for the server and workers too, without the DOM's types.)
if ('document' in globalThis) loadRegexEngine().catch((err: unknown) => console.warn('The RegEx engine did not load', err));

export interface FieldPattern {
  /** The pattern as written, without its message. */
  readonly source: string;
  /** True when the value matches somewhere (as RegExp.test); a value too long for the pattern's cost budget is not checked (true). */
  test(value: string): boolean;
}

export type RegexProblem = 'CATALOGUE_REGEX_INVALID' | 'CATALOGUE_REGEX_UNSUPPORTED';

/**
 * RE2 program instructions times value characters that one check may cost: about 1,000,000 steps
 * is ~10-80 ms in the worst case measured here (a 2,000-instruction program on 500 characters), and
 * a typical pattern (the seed's is 11 instructions) on a 50-character field costs under 1,000.
 */
export const MAX_MATCH_COST = 1_000_000;
/** A bigger program is refused whatever the field's length (compiling it alone takes milliseconds). */
export const MAX_PROGRAM_SIZE = 2_000;

const COMMENT = /^\(\?#([^)]*)\)/;

/** `(?#message)pattern`; no comment without a message. Brackets are dropped from the message (a ')' would end the comment). */
export function composeRegex(message: string, pattern: string): string {
  const m = message.replace(/[()]/g, '').trim();
  const p = pattern.trim();
  if (!p) return '';
  return m ? `(?#${m})${p}` : p;
}

/** The message and pattern of a stored RegEx (the inverse of composeRegex). The message ends at the first ')'. */
export function splitRegex(regex: string | null | undefined): { message: string; pattern: string } {
  const raw = (regex ?? '').trim();
  const m = COMMENT.exec(raw);
  return m ? { message: (m[1] ?? '').trim(), pattern: raw.slice(m[0].length) } : { message: '', pattern: raw };
}

/** An escape that refers back to a group: `\1`-`\9` or `\k<name>`. RE2JS.translateRegExp would quietly read them as literals. */
function hasBackreference(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    const next = source[i + 1] ?? '';
    if ((next >= '1' && next <= '9') || (next === 'k' && source[i + 2] === '<')) return true;
    i++;
  }
  return false;
}

function compilesInJavaScript(source: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(source, flags);
      return true;
    } catch {
      // try the next flags
    }
  }
  return false;
}

type Compiled = { pattern: RE2JS; size: number } | { problem: RegexProblem } | { pending: true };
const PENDING: Compiled = { pending: true };

/** Compiled patterns by source: CSV import and bulk update check the same few patterns on every row. */
const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 256;

function compile(source: string): Compiled {
  const kept = cache.get(source);
  if (kept) return kept;
  let out: Compiled;
  if (hasBackreference(source)) out = { problem: compilesInJavaScript(source) ? 'CATALOGUE_REGEX_UNSUPPORTED' : 'CATALOGUE_REGEX_INVALID' };
  else if (!engine) return PENDING;
  else {
    try {
      // translateRegExp reads JavaScript's spellings RE2 lacks (\u00e9, \u{1F600}, [^], (?<name>...)).
      const pattern = engine.compile(engine.translateRegExp(source));
      const size = pattern.programSize();
      out = size > MAX_PROGRAM_SIZE ? { problem: 'CATALOGUE_REGEX_UNSUPPORTED' } : { pattern, size };
    } catch {
      out = { problem: compilesInJavaScript(source) ? 'CATALOGUE_REGEX_UNSUPPORTED' : 'CATALOGUE_REGEX_INVALID' };
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, out);
  return out;
}

/**
 * Why the RegEx `regex` cannot be saved for a field whose values have at most `longestValue`
 * characters (null: it can; an empty pattern is no RegEx).
 */
export function regexProblem(regex: string | null | undefined, longestValue: number): RegexProblem | null {
  const { pattern } = splitRegex(regex);
  if (!pattern) return null;
  const c = compile(pattern);
  if ('problem' in c) return c.problem;
  if ('pending' in c) return null;
  return c.size * Math.max(1, longestValue) > MAX_MATCH_COST ? 'CATALOGUE_REGEX_UNSUPPORTED' : null;
}

/** The pattern of a stored RegEx, ready to match (null: none, or one the engine cannot use), and its message. */
export function parseRegEx(regex: string | null | undefined): { pattern: FieldPattern | null; message?: string } {
  const split = splitRegex(regex);
  const message = split.message || undefined;
  if (!split.pattern) return { pattern: null, message };
  const source = split.pattern;
  const c = compile(source);
  if ('problem' in c) return { pattern: null, message };
  if ('pending' in c) {
    // Kept by callers: it checks values from the moment the engine is there.
    const test = (value: string): boolean => {
      const now = compile(source);
      return 'pattern' in now ? matches(now, value) : true;
    };
    return { pattern: { source, test }, message };
  }
  return { pattern: { source, test: (value) => matches(c, value) }, message };
}

/** A value too long for the pattern's cost budget is not checked (true). */
function matches(c: { pattern: RE2JS; size: number }, value: string): boolean {
  return value.length * c.size > MAX_MATCH_COST || c.pattern.test(value);
}
