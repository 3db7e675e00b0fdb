/**
 * Text the archive can store. PostgreSQL refuses a NUL character in text and jsonb (22021, 22P05),
 * and a lone UTF-16 surrogate is not Unicode text at all (it cannot be written as UTF-8: drivers
 * send U+FFFD in its place or the server refuses the escape), so the server refuses both at its
 * edge with 400 and the client can check a value with the same rule before sending it.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_REASON = 'the text has a NUL character or an unpaired surrogate, which cannot be stored';

export const isStorableText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

/** Where in a parsed JSON value (strings and object keys) the first unstorable text is. */
export interface UnstorableAt {
  /** e.g. `[1].VAL`, `SearchCriteria[0].MVAL[2]`. */
  path: string;
  /** The chain of array indexes and keys from the root. */
  steps: readonly (string | number)[];
}

interface Node {
  v: unknown;
  step?: string | number;
  up?: Node;
}

function stepsOf(n: Node | undefined): (string | number)[] {
  const out: (string | number)[] = [];
  for (let at = n; at; at = at.up) if (at.step !== undefined) out.push(at.step);
  return out.reverse();
}

const PATH_KEY_MAX = 40;
const stepText = (s: string | number, first: boolean) => {
  if (typeof s === 'number') return `[${s}]`;
  const k = s.length > PATH_KEY_MAX ? `${s.slice(0, PATH_KEY_MAX)}...` : s;
  return first ? k : `.${k}`;
};

/**
 * Walks strings, arrays and plain objects (not Buffers or other class instances) without recursion,
 * each node linked to its parent, so a deeply nested body can neither overflow the stack nor cost
 * a copy of its path per level.
 */
export function findUnstorableText(value: unknown, prefix?: string): UnstorableAt | undefined {
  const stack: Node[] = [{ v: value, ...(prefix !== undefined ? { step: prefix } : {}) }];
  while (stack.length) {
    const n = stack.pop()!;
    const v = n.v;
    let bad: Node | undefined;
    if (typeof v === 'string') {
      if (!isStorableText(v)) bad = n;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], step: i, up: n });
    } else if (v !== null && typeof v === 'object') {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) continue;
      for (const k of Object.keys(v).reverse()) {
        if (!isStorableText(k)) {
          // The key itself is named without its unstorable characters.
          bad = { v: k, step: k.replaceAll('\u0000', '?').replace(/[\ud800-\udfff]/g, '?'), up: n };
          break;
        }
        stack.push({ v: (v as Record<string, unknown>)[k], step: k, up: n });
      }
    }
    if (bad) {
      const steps = stepsOf(bad);
      return { steps, path: steps.map((s, i) => stepText(s, i === 0)).join('') };
    }
  }
  return undefined;
}
