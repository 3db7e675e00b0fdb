import * as z from 'zod/mini';
import { FIELD_PAYLOAD_MAX_ITEMS } from '../api/documents';

/**
 * POST api/indexes?dbId=&archiveId=&token= (the archive-ops spec §7 "Field validation"; archId is
 * accepted for archiveId): the field payload in wire form, answered with one result per item in the
 * same order. The server runs the same rules (rules.ts validateFieldValue in wire form) and adds what
 * only it knows: -4 for a field that is not one of the archive's fields, and -1 with key
 * FIELD_NOT_IN_LIST for a fixed-list field (Prop 64) whose value is not a list item.
 */
export const IndexCheckItem = z.looseObject({
  ID: z.int(),
  VAL: z.optional(z.nullable(z.string())),
  MVAL: z.optional(z.nullable(z.array(z.string()))),
});
export type IndexCheckItem = z.infer<typeof IndexCheckItem>;
export const IndexCheckRequest = z.array(IndexCheckItem).check(z.maxLength(FIELD_PAYLOAD_MAX_ITEMS));

export const IndexCheckResult = z.looseObject({
  ID: z.int(),
  Code: z.int(),
  /** i18n key when Code < 0 (codes.ts). */
  Key: z.optional(z.string()),
  /** English text, or the RegEx's own message. */
  Message: z.optional(z.string()),
  Normalized: z.optional(z.string()),
  NormalizedMVAL: z.optional(z.array(z.string())),
});
export type IndexCheckResult = z.infer<typeof IndexCheckResult>;
export const IndexCheckResponse = z.array(IndexCheckResult);

export const INDEX_CHECK_PATH = '/api/indexes';

export function indexCheckUrl(apiBase: string, q: { dbId: number; archiveId: number; token: string }): string {
  const base = apiBase.replace(/\/+$/, '');
  const params = new URLSearchParams({ dbId: String(q.dbId), archiveId: String(q.archiveId), token: q.token });
  return `${base}${INDEX_CHECK_PATH}?${params.toString()}`;
}
