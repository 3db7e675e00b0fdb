import * as z from 'zod/mini';
import { ADVANCED_LINK_NAME_MAX, ADVANCED_LINK_PATTERN_MAX, advancedLinkSuggestions, fillAdvancedLink } from './advanced-links';
import { ADMIN_AUTOCOMPLETE_CAP } from './admin-searches';

/**
 * Advanced links in the administration console (the console spec §3, §7, §9), the writing side of
 * src/api/advanced-links.ts (same AdvancedLink shape and template syntax):
 *
 *   POST   advancedLinkAdminPaths.links(db)            AdvancedLinkInput -> AdvancedLink
 *   PUT    advancedLinkAdminPaths.links(db)?id={id}    AdvancedLinkInput -> AdvancedLink
 *   DELETE advancedLinkAdminPaths.links(db)?id={id}    -> 204
 *   GET    advancedLinkAdminPaths.adminList(db)[?archiveId=] -> AdvancedLinkList: every link of the
 *          database (or those set on one archive), whatever the administrator's own archive rights
 *
 * Administrators of the database only (403 otherwise). ArchiveId null: every archive of the
 * database; otherwise an archive of the database (400). FieldId null or a field of that archive
 * (of the database when ArchiveId is null). The template filled with any document must be an http(s)
 * address (400 ADMIN_LINK_NOT_HTTP).
 */
export const advancedLinkAdminPaths = {
  links: (db: number) => `/api/AdvancedLinks/databases/${db}`,
  adminList: (db: number) => `/api/admin/databases/${db}/advancedlinks`,
} as const;

/** The editor offers suggestions this long after the last key (§9). */
export const ADVANCED_LINK_SUGGEST_DELAY_MS = 500;

export const AdvancedLinkInput = z.object({
  Name: z.string().check(z.trim(), z.minLength(1), z.maxLength(ADVANCED_LINK_NAME_MAX)),
  FieldId: z.nullable(z.int().check(z.positive())),
  ArchiveId: z.nullable(z.int().check(z.positive())),
  UrlPattern: z.string().check(z.trim(), z.minLength(1), z.maxLength(ADVANCED_LINK_PATTERN_MAX)),
});
export type AdvancedLinkInput = z.infer<typeof AdvancedLinkInput>;

/** Whether a template gives an http(s) address whatever the document (placeholders filled with a sample). */
export function linkPatternIsHttp(pattern: string): boolean {
  return fillAdvancedLink(pattern, { documentId: 1, archiveId: 1, fields: [] }).ok;
}

/** The placeholder being typed: an unclosed '{' before the caret, with the text typed after it. */
export function openPlaceholder(text: string, caret: number): { start: number; typed: string } | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{');
  if (open < 0 || before.lastIndexOf('}') > open) return null;
  const typed = before.slice(open + 1);
  if (typed.length > 200 || /[{}]/.test(typed)) return null;
  return { start: open, typed };
}

/**
 * Suggestions for the placeholder being typed (document id, archive id, then the field names), those
 * containing the typed text (case-insensitively), at most the cap; none when no placeholder is open.
 */
export function linkSuggestionsAt(text: string, caret: number, fieldNames: readonly string[], cap = ADMIN_AUTOCOMPLETE_CAP): string[] {
  const open = openPlaceholder(text, caret);
  if (!open) return [];
  const q = open.typed.trim().toLowerCase();
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of advancedLinkSuggestions(fieldNames)) {
    const k = s.toLowerCase();
    if (seen.has(k) || !k.slice(1, -1).includes(q)) continue;
    seen.add(k);
    out.push(s);
    if (out.length >= cap) break;
  }
  return out;
}

/** The text with the open placeholder replaced by a chosen suggestion, and the caret after it. */
export function applyLinkSuggestion(text: string, caret: number, suggestion: string): { text: string; caret: number } {
  const open = openPlaceholder(text, caret);
  if (!open) return { text: text.slice(0, caret) + suggestion + text.slice(caret), caret: caret + suggestion.length };
  // A '}' right after the caret belongs to the placeholder being replaced.
  const after = text.slice(caret).startsWith('}') ? text.slice(caret + 1) : text.slice(caret);
  const next = text.slice(0, open.start) + suggestion;
  return { text: next + after, caret: next.length };
}
