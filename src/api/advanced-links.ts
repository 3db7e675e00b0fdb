import * as z from 'zod/mini';

/**
 * Advanced links (the archive-ops spec §3 "Advanced link"; the console spec §3, §7): an archive's URL
 * templates, filled with the document's id, its archive's id and its field values, and opened from the
 * viewer in a new tab.
 *
 *   GET advancedLinkPaths.links(db)?archiveId={a} -> 200 AdvancedLinkList
 *       the links of archive a, of its parent archives (a sub-archive shares their fields) and the
 *       database's links for every archive (ArchiveId null), in name order. The user needs the view
 *       right (bit 1) on archive a: 403 otherwise; an unknown database or archive: 404.
 *   GET advancedLinkPaths.links(db)?id={link} -> 200 AdvancedLink
 *       one link; the user needs the view right on its archive (a database-wide link: on any archive
 *       of the database). Unknown link: 404.
 *   Neither archiveId nor id (or not a positive integer): 400 ERROR_INCORRECT_PARAMETERS.
 *   POST / PUT / DELETE (administration, server/routes/admin-advanced-links.ts) use the same shapes.
 *
 * The template (UrlPattern): placeholders in braces, case-insensitive —
 *   {DocumentID}  the document's id
 *   {ArchiveID}   the document's archive id
 *   {<field name>} the value of the archive's field of that name, e.g. {Customer}, {Invoice Number};
 *                 a multi-value field's entries joined with ','
 * Every value is URL-encoded (encodeURIComponent) where it is put; the rest of the template is kept as
 * written. A placeholder that names nothing the document has becomes empty and is reported. A filled
 * link must be an absolute http(s) address; anything else (javascript:, data:, relative) is refused.
 */

export const ADVANCED_LINK_NAME_MAX = 200;
export const ADVANCED_LINK_PATTERN_MAX = 2000;

export const AdvancedLink = z.looseObject({
  Id: z.int(),
  Name: z.string().check(z.minLength(1), z.maxLength(ADVANCED_LINK_NAME_MAX)),
  /** The field the link belongs to (shown beside it); null: the document as a whole. */
  FieldId: z.nullable(z.int()),
  /** null: every archive of the database. */
  ArchiveId: z.nullable(z.int()),
  UrlPattern: z.string().check(z.minLength(1), z.maxLength(ADVANCED_LINK_PATTERN_MAX)),
});
export type AdvancedLink = z.infer<typeof AdvancedLink>;
export const AdvancedLinkList = z.array(AdvancedLink);

export const advancedLinkPaths = {
  links: (db: number) => `/api/AdvancedLinks/databases/${db}`,
} as const;

/** The built-in placeholders (besides field names). */
export const ADVANCED_LINK_DOCUMENT_ID = 'DocumentID';
export const ADVANCED_LINK_ARCHIVE_ID = 'ArchiveID';

/** The placeholders an editor offers for an archive's fields (the console spec §3 "suggestions"). */
export function advancedLinkSuggestions(fieldNames: readonly string[]): string[] {
  return [ADVANCED_LINK_DOCUMENT_ID, ADVANCED_LINK_ARCHIVE_ID, ...fieldNames].map((n) => `{${n}}`);
}

/** The placeholder names a template uses, in order, each once (as written). */
export function advancedLinkPlaceholders(pattern: string): string[] {
  const out: string[] = [];
  for (const m of pattern.matchAll(PLACEHOLDER)) if (!out.some((x) => x.toLowerCase() === m[1]!.trim().toLowerCase())) out.push(m[1]!.trim());
  return out;
}

export interface AdvancedLinkValues {
  documentId: number;
  archiveId: number;
  /** The document's fields by name with their values (VAL; MVAL for multi-value fields). */
  fields: readonly { name: string; VAL?: string | null; MVAL?: readonly string[] | null }[];
}

export type FilledAdvancedLink = { ok: true; url: string; /** Placeholders that named nothing (filled with ''). */ missing: string[] } | { ok: false; reason: 'not-http' };

const PLACEHOLDER = /\{([^{}]{1,200})\}/g;

/** Fills a template with a document's values (see the header for the syntax). Pure. */
export function fillAdvancedLink(pattern: string, v: AdvancedLinkValues): FilledAdvancedLink {
  const byName = new Map<string, string>();
  for (const f of v.fields) {
    const value = f.MVAL && f.MVAL.length ? f.MVAL.filter((x) => x !== '').join(',') : (f.VAL ?? '');
    const key = f.name.trim().toLowerCase();
    if (!byName.has(key)) byName.set(key, value);
  }
  byName.set(ADVANCED_LINK_DOCUMENT_ID.toLowerCase(), String(v.documentId));
  byName.set(ADVANCED_LINK_ARCHIVE_ID.toLowerCase(), String(v.archiveId));
  const missing: string[] = [];
  const url = pattern.trim().replace(PLACEHOLDER, (_, raw: string) => {
    const value = byName.get(raw.trim().toLowerCase());
    if (value === undefined) {
      if (!missing.some((m) => m.toLowerCase() === raw.trim().toLowerCase())) missing.push(raw.trim());
      return '';
    }
    return encodeURIComponent(value);
  });
  if (!isHttpUrl(url)) return { ok: false, reason: 'not-http' };
  return { ok: true, url, missing };
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
