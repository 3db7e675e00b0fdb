/**
 * GET .../documents/{id}/file (user-app.md §7): the bytes of a PDF document for pdf.js. The token
 * travels in the Auth-Token header, never in the address; no history entry is asked for (viewing is
 * not an export). Fetched while the user waits: not through the outbox.
 */
import { ApiError, isAbortError } from '../../../api/api-error';
import { TOKEN_HEADER } from '../../../api/errors';
import { exportPaths } from '../../../api/export';
import { buildQuery, httpContext, httpError } from '../../../api/http';

export async function fetchDocumentBytes(db: number, doc: { archiveId: number; id: number; hash: string }, signal?: AbortSignal): Promise<Uint8Array> {
  const { baseUrl, token } = httpContext();
  const path = exportPaths.file(db, doc.archiveId, doc.id);
  if (!token) throw new ApiError({ kind: 'noToken', method: 'GET', url: path, serverMessage: 'LicenseExpired' });
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}${buildQuery({ SecureId: doc.hash })}`, { headers: { [TOKEN_HEADER]: token }, signal });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw new ApiError({ kind: 'network', method: 'GET', url: path, cause: e });
  }
  if (!res.ok) throw httpError('GET', path, res, await res.text().catch(() => ''));
  return new Uint8Array(await res.arrayBuffer());
}
