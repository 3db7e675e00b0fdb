import { documentPaths } from '../../api/documents';
import { buildQuery } from '../../api/http';

/**
 * Address of a page image the server renders (GET .../documents/{id}/thumb with Page, Width, Height):
 * TIFF pages and every thumbnail. For an <img>, so the token travels as the `token` query parameter
 * as for the grid's thumbnails; built when rendered, never stored.
 */
export function pageImageUrl(p: { baseUrl: string; token: string | null; db: number; archiveId: number; docId: number; hash: string; page: number; width: number; height?: number }): string {
  const q = buildQuery({ SecureId: p.hash, Page: p.page, Width: p.width, Height: p.height, token: p.token });
  return p.baseUrl.replace(/\/+$/, '') + documentPaths.thumb(p.db, p.archiveId, p.docId) + q;
}
