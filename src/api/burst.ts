import * as z from 'zod/mini';
import { FieldDataInvalid, documentPaths } from './documents';
import { isApiError } from './api-error';
import { IDEMPOTENCY_HEADER } from './errors';
import { InboxSendBody, InboxSent } from './inboxes';
import { apiRequest, buildQuery } from './http';

/**
 * Burst (the archive-ops spec §2 view route, §4 "Burst", §5 refusals, §7 "GET files with fileName,
 * action=burst and RequestedPages (repeated)", §8 keys): chosen pages of one TIFF or PDF document
 * become a new import document, which the user then indexes into an archive through the view route
 * (ImportDoc, RequestedPages, deleteBurstedPages, ogArchive, ogDoc).
 *
 *   GET  burstPaths.files?action=burst&db=&archive=&Id=&SecureId=&RequestedPages=1&RequestedPages=3
 *        (&fileName= the name the import document takes; default the source's; &deleteBurstedPages=true
 *        refuses at once when no page would remain)                          -> BurstAnswer
 *   GET  burstPaths.files?fileName={ImportDoc}                               -> the import document's bytes
 *   GET  burstPaths.files?fileName={ImportDoc}&action=thumb&Page=&Width=&Height= -> a page as PNG
 *   POST burstPaths.files?fileName={ImportDoc}&destinationDatabaseId=&destinationArchiveId=&deleteBurstedPages=
 *        body BurstIndexBody (the index values, as an inbox file's send to an archive) -> BurstIndexed;
 *        400 FieldDataInvalid when a value is refused
 *   DELETE burstPaths.files?fileName={ImportDoc}                             -> 204: the import document dropped
 *
 * Our server has no file paths: the source is named as every document call names one (db, archive,
 * Id and its SecureId); fileName names the staged import document (ImportDoc, the answer's name).
 * The import document is the caller's own (another user's name is 404). PDF pages are copied as they
 * are (text and vectors kept), TIFF pages as images into a new multi-page TIFF; a page's rotation in
 * the viewer is applied, so the new document shows each page as the source showed it.
 *
 * Rights: view (1) and add (2) on the source's archive to burst; add on the destination archive to
 * index; removing the burst pages from the source (deleteBurstedPages) needs edit (1024) on its
 * archive, and writes a new version of it with history entries on both documents. The read-only
 * licence (4) may not burst (403).
 */
export const BURST_KEYS = {
  noThumbnail: 'ERROR_NO_THUMBNAIL_SELECTED',
  edoc: 'ERROR_BURSTING_ON_EDOC',
  multipleDocs: 'ERROR_BURSTING_WITH_MULTIPLE_DOCS',
  removeAll: 'ERROR_BURSTING_REMOVE_ALL_PAGES',
} as const;
export type BurstKey = (typeof BURST_KEYS)[keyof typeof BURST_KEYS];

/** File types that can be burst (the stored types: TIF, and TIFF as some files name it; PDF). */
export const BURSTABLE_TYPES = ['PDF', 'TIF', 'TIFF'] as const;
export const isBurstable = (fileType: string | null | undefined): boolean => (BURSTABLE_TYPES as readonly string[]).includes((fileType ?? '').toUpperCase());

/** Pages one burst may take (a larger document is burst in parts). */
export const BURST_MAX_PAGES = 1_000;

/**
 * Why a burst of `pages` (1-based) of a document of `total` pages would be refused, or null. The same
 * rules on the device (before anything is sent) and on the server.
 */
export function burstRefusal(r: { documents: number; fileType: string | null | undefined; pages: readonly number[]; total: number; deletePages: boolean }): BurstKey | null {
  if (r.documents > 1) return BURST_KEYS.multipleDocs;
  if (!isBurstable(r.fileType)) return BURST_KEYS.edoc;
  const chosen = new Set(r.pages.filter((p) => Number.isInteger(p) && p >= 1 && p <= r.total));
  if (chosen.size === 0) return BURST_KEYS.noThumbnail;
  if (r.deletePages && chosen.size >= r.total) return BURST_KEYS.removeAll;
  return null;
}

/** The pages as the call sends them: each once, in document order. */
export const burstPages = (pages: Iterable<number>): number[] => [...new Set(pages)].filter((p) => Number.isInteger(p) && p >= 1).sort((a, b) => a - b);

export const BurstAnswer = z.looseObject({
  /** The import document's name: the view route's ImportDoc, and fileName of the calls on it. */
  ImportDoc: z.string().check(z.minLength(1)),
  /** The name the new document's file takes. */
  FileName: z.string(),
  /** 'PDF' or 'TIF'. */
  FileType: z.string(),
  Pages: z.int(),
  /** The source's pages it holds, in order. */
  RequestedPages: z.array(z.int()),
});
export type BurstAnswer = z.infer<typeof BurstAnswer>;

/** The index values: as an inbox file's send to an archive takes them. */
export const BurstIndexBody = InboxSendBody;
export type BurstIndexBody = InboxSendBody;

/** The new document, as a send to an archive answers it, with its pages. */
export const BurstIndexed = z.extend(InboxSent, {
  Pages: z.int(),
  /** The source's pages now, when the burst pages were removed from it. */
  SourcePages: z.optional(z.int()),
});
export type BurstIndexed = z.infer<typeof BurstIndexed>;

export const burstPaths = { files: documentPaths.files } as const;

/** The view route's address of an import document to index (the archive-ops spec §2). */
export function burstIndexPath(p: { db: number; importDoc: string; pages: readonly number[]; deletePages: boolean; ogArchive: number; ogDoc: number; fromIndexer?: boolean }): string {
  return `/view${buildQuery({
    db: p.db,
    ImportDoc: p.importDoc,
    RequestedPages: [...p.pages],
    deleteBurstedPages: p.deletePages ? 'true' : 'false',
    ogArchive: p.ogArchive,
    ogDoc: p.ogDoc,
    fromIndexer: p.fromIndexer ? 'true' : undefined,
  })}`;
}

/** A page of an import document as an image (token in the query, as every <img> address). */
export function importDocThumbUrl(p: { baseUrl: string; token: string | null; importDoc: string; page: number; width: number; height?: number }): string {
  return p.baseUrl.replace(/\/+$/, '') + burstPaths.files + buildQuery({ fileName: p.importDoc, action: 'thumb', Page: p.page, Width: p.width, Height: p.height, token: p.token });
}

export interface BurstSource {
  db: number;
  archiveId: number;
  docId: number;
  hash: string;
}

/** GET files?action=burst: the import document of the chosen pages (its name in the answer). */
export function requestBurst(src: BurstSource, pages: readonly number[], deletePages: boolean, signal?: AbortSignal): Promise<BurstAnswer> {
  return apiRequest({
    path: burstPaths.files,
    query: { action: 'burst', db: src.db, archive: src.archiveId, Id: src.docId, SecureId: src.hash, RequestedPages: burstPages(pages), deleteBurstedPages: deletePages ? 'true' : undefined },
    schema: BurstAnswer,
    signal,
  });
}

export type IndexOutcome = { ok: true; indexed: BurstIndexed } | { ok: false; refused: FieldDataInvalid };

/**
 * POST files?fileName={ImportDoc}: the import document as a new document of the archive. A value the
 * server refuses comes back as its FieldDataInvalid (not thrown), so the form can name the fields.
 * One Idempotency-Key a save: a repeat of a lost answer does not make a second document.
 */
export async function indexImportDoc(
  r: { importDoc: string; db: number; archiveId: number; deletePages: boolean; fields: BurstIndexBody['Fields']; key: string },
  signal?: AbortSignal,
): Promise<IndexOutcome> {
  try {
    const indexed = await apiRequest({
      method: 'POST',
      path: burstPaths.files,
      query: { fileName: r.importDoc, destinationDatabaseId: r.db, destinationArchiveId: r.archiveId, deleteBurstedPages: r.deletePages ? 'true' : 'false' },
      body: { Fields: r.fields },
      headers: { [IDEMPOTENCY_HEADER]: r.key },
      schema: BurstIndexed,
      signal,
    });
    return { ok: true, indexed };
  } catch (e) {
    const refused = isApiError(e) && e.status === 400 ? FieldDataInvalid.safeParse(e.body) : null;
    if (refused?.success) return { ok: false, refused: refused.data };
    throw e;
  }
}

/** DELETE files?fileName=: the import document dropped (the user cancelled). */
export function dropImportDoc(importDoc: string): Promise<unknown> {
  return apiRequest({ method: 'DELETE', path: burstPaths.files, query: { fileName: importDoc }, schema: z.unknown() });
}
