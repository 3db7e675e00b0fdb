/**
 * Archives and sub-archives in the administration console (the console spec §3 Archive, §4, §5, §7),
 * under admin/databases/{db} (adminConsolePaths), every call for an administrator of that database:
 *   GET    .../archives                        -> AdminArchiveList (parents before children)
 *   POST   .../archives          ArchiveEdit   -> AdminArchive
 *   GET    .../archives/{a}                    -> AdminArchive
 *   PUT    .../archives/{a}      ArchiveEdit   -> AdminArchive (Parent changed: relocated)
 *   DELETE .../archives/{a}                    -> ArchiveDeleted (its sub-archives and documents too)
 *   GET    .../archives/{a}/notifications?includeGlobal=true -> ArchiveNotifications (Global: the
 *          installation's, when asked)
 *   PUT    .../archives/{a}/notifications  NotificationsEdit -> ArchiveNotifications (Message sanitised)
 *   GET    .../archives/{a}/indexrebuild?docCount=1000 -> IndexRebuildStarted (a server job, in the tray)
 * Rules the server enforces: an archive has at least one field (ARCHIVE_FIELDS_REQUIRED); a view
 * value's label is required (VIEW_LABEL_REQUIRED) and unique in the archive (VIEW_LABEL_NOT_UNIQUE);
 * content search turns PDF conversion off; an archive cannot move under itself or its own
 * sub-archive (ARCHIVE_RELOCATE_CYCLE).
 */
import * as z from 'zod/mini';

/** Documents re-indexed per call of the content-search rebuild (§9). */
export const INDEX_REBUILD_DOC_COUNT = 1000;
export const INDEX_REBUILD_JOB_KIND = 'index-rebuild' as const;

export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

export const ViewValue = z.object({
  Label: z.string().check(z.maxLength(100)),
  Value: z.string().check(z.maxLength(500)),
  Color: z.string().check(z.regex(HEX_COLOR)),
});
export type ViewValue = z.infer<typeof ViewValue>;

export const ArchiveViews = z.object({
  Enabled: z.boolean(),
  /** The field whose value picks the view tab. */
  StatusField: z.nullable(z.int()),
  Values: z.array(ViewValue).check(z.maxLength(200)),
});
export type ArchiveViews = z.infer<typeof ArchiveViews>;

export const Notification = z.object({
  To: z.string().check(z.maxLength(2000)),
  From: z.string().check(z.maxLength(500)),
  Subject: z.string().check(z.maxLength(1000)),
  /** HTML from the rich-text editor; sanitised by the server on save and by the client on display. */
  Message: z.string().check(z.maxLength(200_000)),
});
export type Notification = z.infer<typeof Notification>;

export const BasePath = z.object({ Path: z.string().check(z.maxLength(1000)), Default: z.boolean() });

export const AdminArchive = z.looseObject({
  Id: z.int(),
  Name: z.string(),
  Parent: z.nullable(z.int()),
  /** Field ids in the archive's order. */
  Fields: z.array(z.int()),
  Views: ArchiveViews,
  Notifications: Notification,
  BasePath: BasePath,
  ContentSearch: z.boolean(),
  ConvertPdf: z.boolean(),
  /** 0 or 1. */
  RevisionControl: z.int(),
  /** The archive that keeps earlier versions ('Versions'), not edited here. */
  IsVersions: z.optional(z.boolean()),
});
export type AdminArchive = z.infer<typeof AdminArchive>;
export const AdminArchiveList = z.array(AdminArchive);

export const ArchiveEdit = z.object({
  Name: z.string().check(z.minLength(1), z.maxLength(200)),
  Parent: z.nullable(z.int()),
  Fields: z.array(z.int()).check(z.maxLength(500)),
  Views: z.optional(ArchiveViews),
  BasePath: z.optional(BasePath),
  ContentSearch: z.optional(z.boolean()),
  ConvertPdf: z.optional(z.boolean()),
  RevisionControl: z.optional(z.int().check(z.minimum(0), z.maximum(1))),
});
export type ArchiveEdit = z.infer<typeof ArchiveEdit>;

export const ArchiveDeleted = z.looseObject({ Id: z.int(), Deleted: z.array(z.int()) });

export const ArchiveNotifications = z.looseObject({
  ...Notification.shape,
  Global: z.optional(z.nullable(Notification)),
});
export type ArchiveNotifications = z.infer<typeof ArchiveNotifications>;

export const IndexRebuildStarted = z.looseObject({ JobId: z.int(), Count: z.int() });

/** A view value's label problem, or null (the client shows it before saving; the server refuses the same). */
export function viewLabelProblem(values: readonly { label: string }[], index: number): 'VIEW_LABEL_REQUIRED' | 'VIEW_LABEL_NOT_UNIQUE' | null {
  const label = values[index]?.label.trim() ?? '';
  if (!label) return 'VIEW_LABEL_REQUIRED';
  const lower = label.toLowerCase();
  if (values.some((v, i) => i !== index && v.label.trim().toLowerCase() === lower)) return 'VIEW_LABEL_NOT_UNIQUE';
  return null;
}

/** A random colour for a new view value (§4): '#' and six hexadecimal digits. */
export function randomHexColor(random: () => number = Math.random): string {
  return `#${Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')}`;
}
