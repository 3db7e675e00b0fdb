/**
 * Single export (the user-app spec §7 `GET .../documents/{id}/file`; contract src/api/export.ts): which
 * bytes a download of one document gives and under which name. A document of one file gives that
 * file as stored (streamed from the blob store by path, never read into memory); a document of
 * several files gives ONE PDF of all its pages in order (merge.ts pagesToPdf, the same code the
 * export's ConvertToPDF uses), built in memory like a merge is. Nothing is kept.
 */
import { stat } from 'node:fs/promises';
import { ARCHIVE_PERMISSIONS } from '../../src/api/archives.js';
import { FORBIDDEN_NAME_CHARS } from '../../src/api/export.js';
import type { Queryable } from '../db/store.js';
import type { FileStore } from '../files/file-store.js';
import { ApiError, Errors } from '../http/errors.js';
import { writeAudit } from './audit.js';
import { loadDocument, type Actor } from './documents.js';
import { pagesOf, pagesToPdf } from './merge.js';

export interface SingleExportRequest {
  dbId: number;
  archiveId: number;
  docId: number;
  secureId: string;
  fileNameFieldId?: number;
  auditEntry?: boolean;
  /**
   * Read to be shown (the viewer, a document kept offline), not exported: the view right (1) is
   * enough (the archive-ops spec §5: view rights are needed to open a document) and no history is
   * written (opening writes its own 'viewed').
   */
  forView?: boolean;
}

/** What the route sends: a path to stream, or the bytes of a combined PDF. */
export type DocumentFile = { name: string; type: string; size: number } & ({ path: string } | { bytes: Uint8Array });

const MIME_BY_TYPE: Record<string, string> = {
  PDF: 'application/pdf',
  TIF: 'image/tiff',
  TIFF: 'image/tiff',
  PNG: 'image/png',
  JPG: 'image/jpeg',
  JPEG: 'image/jpeg',
  GIF: 'image/gif',
  TXT: 'text/plain',
};

/** Long enough for any title a field holds, short enough for every file system (255 bytes in UTF-8). */
const MAX_NAME_CHARS = 120;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

const fileMissing = () => new ApiError(404, 'The file of this document does not exist', 'FILE_DOES_NOT_EXIST');

/**
 * A file name (without extension) any operating system accepts: no \ / : * ? " < > | (the spec's
 * FORBIDDEN_NAME_CHARS) or control characters, no leading or trailing dots and spaces (Windows drops
 * them), not a Windows device name, at most MAX_NAME_CHARS characters. '' when nothing is left.
 */
export function safeBaseName(value: string): string {
  const forbidden = new RegExp(FORBIDDEN_NAME_CHARS.source, 'g');
  let s = value
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(forbidden, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  s = [...s].slice(0, MAX_NAME_CHARS).join('').replace(/[\s.]+$/, '');
  if (WINDOWS_DEVICE.test(s)) s = `_${s}`;
  return s;
}

/** The extension of a stored name ('.pdf'), or one for the file type when the name has none. */
function extensionOf(fileName: string | null, fileType: string | null): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(fileName ?? '');
  if (m) return `.${m[1]!.toLowerCase()}`;
  const t = (fileType ?? '').toLowerCase();
  return /^[a-z0-9]{1,8}$/.test(t) ? `.${t}` : '';
}

const stripExtension = (name: string) => name.replace(/\.[A-Za-z0-9]{1,8}$/, '');

/**
 * Content-Disposition for a download named `name` (RFC 6266): an ASCII `filename` for old clients and
 * the exact name as RFC 5987 `filename*` (UTF-8, percent-encoded), which every current browser uses.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The value of the field that names the file: its value, else the first of a multi-value field's. */
function fieldValue(doc: { fields: Record<string, unknown> | null; mvals: Record<string, unknown> | null }, fieldId: number): string {
  const v = doc.fields?.[String(fieldId)];
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  const m = doc.mvals?.[String(fieldId)];
  return Array.isArray(m) && (typeof m[0] === 'string' || typeof m[0] === 'number') ? String(m[0]) : '';
}

/**
 * The document's file for `actor`, after the checks: 404 unknown database, archive or document
 * (deleted included) or no file; 403 without view (1) or export (128) on the archive, or a wrong
 * SecureId. With auditEntry, an 'exported' history entry. forView: view alone, no history.
 */
export async function documentFile(db: Queryable, files: FileStore, actor: Actor, q: SingleExportRequest, now: Date): Promise<DocumentFile> {
  const { archive } = await loadDocument(db, actor.userId, q.dbId, q.archiveId, q.docId, q.secureId, ARCHIVE_PERMISSIONS.view);
  if (!q.forView && (archive.rights & ARCHIVE_PERMISSIONS.export) === 0) throw Errors.forbidden('You do not have permission to export documents of this archive');

  const d = (
    await db.query<{ file_name: string | null; fields: Record<string, unknown> | null; mvals: Record<string, unknown> | null }>(
      'SELECT file_name, fields, mvals FROM documents WHERE id = $1',
      [q.docId],
    )
  ).rows[0]!;
  const stored = (
    await db.query<{ sha256: string; file_name: string; file_type: string; mime: string | null }>(
      'SELECT f.sha256, f.file_name, f.file_type, b.mime FROM document_files f LEFT JOIN blobs b ON b.sha256 = f.sha256 WHERE f.document_id = $1 ORDER BY f.position, f.id',
      [q.docId],
    )
  ).rows;
  if (stored.length === 0) throw fileMissing();

  const named = q.fileNameFieldId === undefined ? '' : safeBaseName(fieldValue(d, q.fileNameFieldId));
  let out: DocumentFile;
  if (stored.length === 1) {
    const f = stored[0]!;
    const path = files.pathOf(f.sha256);
    const size = await stat(path).then(
      (s) => s.size,
      () => {
        throw fileMissing();
      },
    );
    const ext = extensionOf(f.file_name, f.file_type);
    const name = named ? `${named}${ext}` : `${safeBaseName(stripExtension(f.file_name)) || `document-${q.docId}`}${ext}`;
    out = { name, type: MIME_BY_TYPE[f.file_type.toUpperCase()] ?? f.mime ?? 'application/octet-stream', size, path };
  } else {
    // Rotated pages are turned, as they are shown: this PDF is made for the reader, not a copy as stored.
    const bytes = await pagesToPdf(files, await pagesOf(db, [q.docId]), { rotate: true });
    const base = named || safeBaseName(stripExtension(d.file_name ?? '')) || `document-${q.docId}`;
    out = { name: `${base}.pdf`, type: 'application/pdf', size: bytes.byteLength, bytes };
  }

  if (q.auditEntry) {
    await writeAudit(db, {
      databaseId: q.dbId,
      archiveId: q.archiveId,
      documentId: q.docId,
      category: 'exported',
      message: `Document exported as ${out.name}`,
      time: now,
      userName: actor.userName,
      userId: actor.userId,
      event: { Kind: 'exported' },
      details: { FileName: out.name },
    });
  }
  return out;
}
