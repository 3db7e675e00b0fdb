/**
 * An advanced link as stored (table advanced_links) and as sent (src/api/advanced-links.ts): the one
 * row shape, column list and mapping for the users' reading side (routes/advanced-links.ts) and the
 * administration's writes (routes/admin-advanced-links.ts).
 */
import type { AdvancedLink } from '../../src/api/advanced-links.js';

export interface LinkRow {
  id: number;
  name: string;
  field_id: number | null;
  archive_id: number | null;
  url_pattern: string;
}

export const LINK_COLUMNS = 'id, name, field_id, archive_id, url_pattern';

export const linkToWire = (r: LinkRow): AdvancedLink => ({ Id: r.id, Name: r.name, FieldId: r.field_id, ArchiveId: r.archive_id, UrlPattern: r.url_pattern });
