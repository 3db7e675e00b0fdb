/**
 * GET .../documents/{id}/file (the user-app spec §7 single export; contract src/api/export.ts): the
 * document's file as the server gives it (a document of several files: one PDF), with the name from
 * its Content-Disposition. Called directly, not through the outbox: a download happens while the user
 * waits, or not at all. The token travels in the Auth-Token header, never in a URL the user could see
 * or find in the browser's download list.
 */
import { ApiError, isAbortError } from './api-error';
import { TOKEN_HEADER } from './errors';
import { exportPaths } from './export';
import { buildQuery, httpContext, httpError } from './http';

export interface FileDoc {
  id: number;
  hash: string;
  archiveId: number;
}

export interface FetchedFile {
  /** The answer, its body not read yet (streamed into a file, or read as a Blob to share). */
  response: Response;
  name: string;
  type: string;
  /** Content-Length, when the server sent it. */
  size: number | null;
}

/**
 * The file name of a Content-Disposition header (RFC 6266): the RFC 5987 filename* (UTF-8) when
 * present, else the plain filename; null when it names none.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      const bytes = star[2]!.trim();
      // ISO-8859-1 is the only other charset RFC 5987 names: one byte a character.
      const name = star[1]!.toLowerCase() === 'utf-8' ? decodeURIComponent(bytes) : bytes.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      if (name) return name;
    } catch {
      // A malformed filename*: the plain filename below.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  const name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : undefined;
  return name || null;
}

export async function fetchDocumentFile(db: number, doc: FileDoc, opts: { auditEntry?: boolean; fileNameFieldId?: number; signal?: AbortSignal; /** Read to be shown, not exported: view right enough, no history. */ view?: boolean } = {}): Promise<FetchedFile> {
  const { baseUrl, token } = httpContext();
  const path = exportPaths.file(db, doc.archiveId, doc.id);
  const query = buildQuery({ SecureId: doc.hash, fileNameFieldId: opts.fileNameFieldId, auditEntry: opts.auditEntry, View: opts.view || undefined });
  const shownUrl = path;
  if (!token) throw new ApiError({ kind: 'noToken', method: 'GET', url: shownUrl, serverMessage: 'LicenseExpired' });
  let res: Response;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}${query}`, { headers: { [TOKEN_HEADER]: token }, signal: opts.signal });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw new ApiError({ kind: 'network', method: 'GET', url: shownUrl, cause: e });
  }
  if (!res.ok) throw httpError('GET', shownUrl, res, await res.text().catch(() => ''));
  const length = Number(res.headers.get('content-length'));
  return {
    response: res,
    name: fileNameFromDisposition(res.headers.get('content-disposition')) ?? `document-${doc.id}`,
    type: (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(),
    size: Number.isFinite(length) && res.headers.has('content-length') ? length : null,
  };
}
