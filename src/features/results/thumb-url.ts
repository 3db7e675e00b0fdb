import { buildQuery } from '../../api/http';
import { documentPaths } from '../../api/documents';

/**
 * Address of a document thumbnail for an <img>: the token travels as the `token` query parameter,
 * as for every call. Built when rendered, never stored (the token must not be persisted).
 */
export function thumbUrl(p: {
  baseUrl: string;
  token: string | null;
  db: number;
  archiveId: number;
  docId: number;
  hash: string;
  width: number;
  height: number;
  page?: number;
}): string {
  const path = documentPaths.thumb(p.db, p.archiveId, p.docId);
  const q = buildQuery({ SecureId: p.hash, Height: p.height, Width: p.width, Page: p.page ?? 1, token: p.token });
  return p.baseUrl.replace(/\/+$/, '') + path + q;
}
