/**
 * The field validation the validation worker runs, plain and typed (workers/validation.worker.ts
 * exposes it, src/features/editing/validation-bridge.ts calls it; shared rules, so it lives here and
 * not in workers/): the local field rules first, then, for the values
 * that passed and when a server context is given, POST api/indexes for what only the server knows
 * (-4 field not found, fixed-list membership). Offline or on a server error the local results
 * stand, marked serverChecked: false. Stateless: nothing is kept between calls.
 */
import type { Field } from '../api/archives';
import { IndexCheckRequest, IndexCheckResponse, indexCheckUrl, type IndexCheckItem, type IndexCheckResult } from './check-contract';
import { FIELD_MESSAGE_KEYS, type FieldCode } from './codes';
import { isMultiField, validateFieldValue } from './rules';

export interface FieldInput {
  ID: number;
  VAL?: string | null;
  MVAL?: string[] | null;
}

export interface ServerCheckContext {
  dbId: number;
  archiveId: number;
  token: string;
  /** '' for the page's own origin. */
  apiBase: string;
}

export interface FieldCheck {
  ID: number;
  code: FieldCode;
  key?: string;
  message?: string;
  /** Wire form of VAL (and MVAL for multi-value fields) when code is 0. */
  normalized?: string;
  normalizedMVAL?: string[];
  /** Multi-value fields: the first invalid entry. */
  index?: number;
  /** True when the server's answer is part of this result. */
  serverChecked: boolean;
}

export interface ValidationOutcome {
  results: FieldCheck[];
  /** Why the server check was not made (offline, HTTP status), when it was asked for. */
  serverError?: string;
}

const KNOWN_CODES = new Set<number>([0, -1, -2, -3, -4, -5, -6]);

export function validateLocally(fields: readonly Field[], values: readonly FieldInput[], locale: string): FieldCheck[] {
  const byId = new Map(fields.map((f) => [f.ID, f]));
  return values.map((v) => {
    const field = byId.get(v.ID);
    if (!field) return { ID: v.ID, code: -4, key: FIELD_MESSAGE_KEYS[-4], serverChecked: false };
    const r = validateFieldValue(field, { VAL: v.VAL, MVAL: v.MVAL }, locale);
    const out: FieldCheck = { ID: v.ID, code: r.code, serverChecked: false };
    if (r.key) out.key = r.key;
    if (r.message) out.message = r.message;
    if (r.code === 0) {
      out.normalized = r.normalized ?? '';
      if (isMultiField(field)) out.normalizedMVAL = r.normalizedMVAL ?? [];
    }
    if (r.index !== undefined) out.index = r.index;
    return out;
  });
}

export async function validate(
  fields: Field[],
  values: FieldInput[],
  locale: string,
  ctx?: ServerCheckContext,
  fetchImpl: typeof fetch = (...a) => fetch(...a),
): Promise<ValidationOutcome> {
  const results = validateLocally(fields, values, locale);
  const passed = results.filter((r) => r.code === 0);
  if (!ctx || passed.length === 0) return { results };
  const body: IndexCheckItem[] = passed.map((r) => ({ ID: r.ID, VAL: r.normalized ?? '', ...(r.normalizedMVAL ? { MVAL: r.normalizedMVAL } : {}) }));
  let answer: IndexCheckResult[];
  try {
    const res = await fetchImpl(indexCheckUrl(ctx.apiBase, ctx), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(IndexCheckRequest.parse(body)),
    });
    if (!res.ok) return { results, serverError: `HTTP ${res.status}` };
    answer = IndexCheckResponse.parse(await res.json());
  } catch (e) {
    return { results, serverError: e instanceof Error ? e.message : String(e) };
  }
  const byId = new Map(answer.map((a) => [a.ID, a]));
  for (const r of passed) {
    const a = byId.get(r.ID);
    if (!a) continue;
    r.serverChecked = true;
    if (a.Code === 0) {
      if (a.Normalized !== undefined) r.normalized = a.Normalized;
      if (a.NormalizedMVAL !== undefined) r.normalizedMVAL = a.NormalizedMVAL;
      continue;
    }
    r.code = (KNOWN_CODES.has(a.Code) ? a.Code : -1) as FieldCode;
    delete r.normalized;
    delete r.normalizedMVAL;
    if (a.Key) r.key = a.Key;
    if (a.Message) r.message = a.Message;
  }
  return { results };
}
