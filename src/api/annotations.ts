import * as z from 'zod/mini';

/**
 * Page rotation, annotations and stamps (the user-app spec §6 bits 1024 and 2048, licence 4; §7 "POST
 * Processing handler: page rotate: doc, angle, page" and "GET admin/stamps"; §9 viewer stamp font
 * Arial 120; the archive-ops spec §3 Stamp; the console spec stamps).
 *
 *   POST annotationPaths.processing            body ProcessingRequest -> 200 ProcessingAnswer
 *     Turns page `page` of document `doc` by `angle` degrees clockwise (90, 180, 270; -90 is 270):
 *     the stored file itself is rewritten (a PDF page's /Rotate, a TIFF or image page's pixels),
 *     the document gets a new version and an 'updated' history entry, and its thumbnails and pages
 *     are drawn from the new file. Needs view (1) and edit (1024) on the archive, and not the
 *     read-only licence (4): 403 ERROR_FAILED_DUE_TO_PERMISSIONS. A wrong secureId: 403; no such
 *     page: 400; a versions archive: 400; checked out by another user: 409.
 *   GET annotationPaths.list(db, a, doc)?SecureId=   -> 200 DocumentAnnotations (view right, 1)
 *   PUT annotationPaths.one(db, a, doc, id)?SecureId=  body AnnotationInput -> 200 Annotation
 *     Adds the annotation, or changes one of the caller's own (another user's: 403). A stamp's text
 *     cannot change (400). Needs 2048 and not licence 4. History: 'annotation'.
 *   DELETE annotationPaths.one(db, a, doc, id)?SecureId= -> 200 AnnotationDeleted (one's own; 2048)
 *   GET stampPaths.list -> 200 StampList: every stamp (Id, Text), sorted alphabetically; any
 *     signed-in user. POST stampPaths.list body StampInput -> 200 Stamp; DELETE stampPaths.one(id)
 *     -> 200: an administrator of all databases only (403 otherwise); a text already used: 409 Key
 *     STAMP_EXISTS_KEY, Message 'Stamp already exists.'.
 */
export const ROTATE_ANGLES = [90, 180, 270] as const;
export const ANNOTATION_KINDS = ['text', 'stamp', 'highlight'] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];
export const ANNOTATION_TEXT_MAX = 2000;
export const STAMP_TEXT_MAX = 200;
export const STAMP_EXISTS_KEY = 'STAMP_EXISTS';
export const STAMP_EXISTS_MESSAGE = 'Stamp already exists.';
/** The stamp's outline and text (the archive-ops spec §3: "a red-ish outline"). */
export const STAMP_COLOR = '#d32f2f';
/** the user-app spec §9: the viewer's stamp font. */
export const STAMP_FONT_FAMILY = 'Arial';
export const STAMP_FONT_POINTS = 120;
/**
 * The page width the stamp's 120 is measured against: a letter page scanned at 300 dpi (2550 px).
 * Font sizes are kept as fractions of the page's width, so a stamp is the same part of the page at
 * every zoom, on every device and in an export.
 */
export const STAMP_REFERENCE_PAGE_WIDTH = 2550;
export const STAMP_FONT_SIZE = STAMP_FONT_POINTS / STAMP_REFERENCE_PAGE_WIDTH;
/** A note's or stamp's box: inner padding and line height, in font sizes (the viewer and the export's burn-in draw alike). */
export const ANNOTATION_PADDING = 0.25;
export const ANNOTATION_LINE_HEIGHT = 1.2;
/** A note's text: a third of the stamp's. */
export const NOTE_FONT_SIZE = STAMP_FONT_SIZE / 3;

const Fraction = z.number().check(z.gte(0), z.lte(1));
const Color = z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/));

export const ProcessingRequest = z.object({
  db: z.int().check(z.positive()),
  archive: z.int().check(z.positive()),
  doc: z.int().check(z.positive()),
  secureId: z.string().check(z.minLength(1), z.maxLength(200)),
  angle: z.union([z.literal(90), z.literal(180), z.literal(270), z.literal(-90)]),
  page: z.int().check(z.positive()),
});
export type ProcessingRequest = z.infer<typeof ProcessingRequest>;
export const ProcessingAnswer = z.looseObject({ Version: z.int(), Page: z.int(), Rotation: z.int(), Pages: z.int() });
export type ProcessingAnswer = z.infer<typeof ProcessingAnswer>;

/** What the client sends for one annotation (its id is in the path). */
export const AnnotationInput = z.object({
  Kind: z.enum(ANNOTATION_KINDS),
  Page: z.int().check(z.positive()),
  X: Fraction,
  Y: Fraction,
  Width: Fraction,
  Height: Fraction,
  FontSize: z.optional(z.number().check(z.gte(0), z.lte(1))),
  Text: z.optional(z.string().check(z.maxLength(ANNOTATION_TEXT_MAX))),
  Color: z.optional(Color),
});
export type AnnotationInput = z.infer<typeof AnnotationInput>;

export const Annotation = z.looseObject({
  Id: z.string(),
  Kind: z.enum(ANNOTATION_KINDS),
  Page: z.int(),
  X: z.number(),
  Y: z.number(),
  Width: z.number(),
  Height: z.number(),
  FontSize: z.number(),
  Text: z.string(),
  Color: z.string(),
  CreatedBy: z.nullable(z.string()),
  /** Whether the caller made it (only their own can be moved or deleted). */
  Mine: z.boolean(),
  CreatedAt: z.string(),
});
export type Annotation = z.infer<typeof Annotation>;

/** The document's annotations, and the caller's rights on its archive (ARCHIVE_PERMISSIONS). */
export const DocumentAnnotations = z.looseObject({ Permissions: z.int(), Annotations: z.array(Annotation) });
export type DocumentAnnotations = z.infer<typeof DocumentAnnotations>;
export const AnnotationDeleted = z.looseObject({ Deleted: z.boolean() });

export const Stamp = z.looseObject({ Id: z.optional(z.int()), Text: z.string() });
export type Stamp = z.infer<typeof Stamp>;
export const StampList = z.array(Stamp);
export const StampInput = z.object({ Text: z.string().check(z.minLength(1), z.maxLength(STAMP_TEXT_MAX)) });

/** A UUID or similar client id: letters, digits, '-' and '_'. */
export const ANNOTATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

const doc = (db: number, archive: number, id: number) => `/api/dbs/${db}/archives/${archive}/documents/${id}`;
export const annotationPaths = {
  processing: '/api/Processing',
  list: (db: number, archive: number, id: number) => `${doc(db, archive, id)}/annotations`,
  one: (db: number, archive: number, id: number, annotationId: string) => `${doc(db, archive, id)}/annotations/${encodeURIComponent(annotationId)}`,
} as const;
export const stampPaths = {
  list: '/api/admin/stamps',
  one: (id: number) => `/api/admin/stamps/${id}`,
} as const;
