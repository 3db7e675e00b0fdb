import * as z from 'zod/mini';
import { apiRequest } from './http';

/**
 * The viewer session (the user-app spec §3 "Viewer session", §7 "POST session"): the documents of the
 * result page the viewer was opened from, kept on the server so the viewer can go to the next or
 * previous document, also in a new tab or after a reload.
 *
 *   POST viewerPaths.session()     body ViewerSessionRequest -> 200 ViewerSessionCreated
 *   GET  viewerPaths.session(id)                            -> 200 ViewerSession
 *
 * The server checks the view right (archive bit 1) and the Hash of every document when the session
 * is made: one it may not view refuses the whole call (403), one that does not exist 404. The
 * session belongs to the signed-in user (another user's id: 404). GET answers each document with
 * what the viewer needs to show it (file type, pages, file name, title); a document deleted since, or no longer
 * viewable, comes back with Available false and nothing else about it.
 */
export const VIEWER_SESSION_MAX_DOCUMENTS = 10_000;

export const ViewerSessionDocument = z.object({
  Archive: z.int().check(z.positive()),
  Id: z.int().check(z.positive()),
  Hash: z.string().check(z.minLength(1), z.maxLength(200)),
  ContentSearchTerms: z.optional(z.string().check(z.maxLength(2000))),
});
export type ViewerSessionDocument = z.infer<typeof ViewerSessionDocument>;

export const ViewerSessionRequest = z.object({
  Database: z.int().check(z.positive()),
  SearchId: z.optional(z.nullable(z.int())),
  SearchCriteria: z.optional(z.nullable(z.string().check(z.maxLength(100_000)))),
  Documents: z.array(ViewerSessionDocument).check(z.minLength(1), z.maxLength(VIEWER_SESSION_MAX_DOCUMENTS)),
});
export type ViewerSessionRequest = z.infer<typeof ViewerSessionRequest>;

export const ViewerSessionCreated = z.looseObject({ Id: z.string().check(z.minLength(1)) });

/** 'PDF' documents are drawn on the device (pdf.js); any other type ('TIFF', images) from the server's page images. */
export const ViewerDocumentInfo = z.looseObject({
  Archive: z.int(),
  Id: z.int(),
  Hash: z.string(),
  Available: z.boolean(),
  FileName: z.optional(z.nullable(z.string())),
  /** What names the document to a person: its first character field with a value (a title), in its archive's field order. */
  Title: z.optional(z.nullable(z.string())),
  FileType: z.optional(z.nullable(z.string())),
  Pages: z.optional(z.int()),
  ContentSearchTerms: z.optional(z.nullable(z.string())),
  /** The version of the document's pages (files, order, rotations): a copy kept offline is fetched again when it changes. */
  Version: z.optional(z.nullable(z.string())),
});
export type ViewerDocumentInfo = z.infer<typeof ViewerDocumentInfo>;

export const ViewerSession = z.looseObject({
  Id: z.string(),
  Database: z.int(),
  SearchId: z.optional(z.nullable(z.int())),
  SearchCriteria: z.optional(z.nullable(z.string())),
  Documents: z.array(ViewerDocumentInfo),
});
export type ViewerSession = z.infer<typeof ViewerSession>;

export const viewerPaths = {
  session: (id?: string) => (id === undefined ? '/api/session' : `/api/session/${encodeURIComponent(id)}`),
} as const;

/** POST api/session: a viewer session of these documents; its id. */
export async function createViewerSession(body: ViewerSessionRequest, signal?: AbortSignal): Promise<string> {
  const r = await apiRequest({ method: 'POST', path: viewerPaths.session(), body, auth: 'header', schema: ViewerSessionCreated, signal });
  return r.Id;
}

/** GET api/session/{id}: the session's documents as the viewer shows them. */
export function getViewerSession(id: string, signal?: AbortSignal): Promise<ViewerSession> {
  return apiRequest({ path: viewerPaths.session(id), auth: 'header', schema: ViewerSession, signal });
}
