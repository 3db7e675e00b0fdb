/**
 * Which document actions a user may start (copy, move, delete, e-mail, merge, append), and where
 * copied or moved documents may go (the user-app spec §6:
 * licence type 4 disables delete, move and copy; archive bits 8 delete, 131072 move; the archive-ops spec
 * §4: add (2) on the destination; a versions archive (Props 16) is never a destination). The server
 * enforces the same rules: this only keeps the user from starting what would be refused.
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, type Archive } from '../../api/archives';
import { MERGE_MAX_DOCUMENTS, type DocumentOperation } from '../../api/documents';

export const READ_ONLY_LICENCE = 4;

/** Why the action cannot be started (a translation key), or null when it can. */
export type BlockedReason =
  | 'DOCUMENTS_READ_ONLY_LICENCE' | 'DOCUMENTS_NO_DELETE_RIGHT' | 'DOCUMENTS_NO_MOVE_RIGHT' | 'DOCUMENTS_NO_VIEW_RIGHT' | 'DOCUMENTS_NO_EMAIL_RIGHT'
  | 'DOCUMENTS_NO_MERGE_RIGHT' | 'DOCUMENTS_NO_APPEND_RIGHT' | 'DOCUMENTS_EMAIL_NOT_SET_UP' | null;

/**
 * `permissions`: the user's bits on the source archive (the result set's Permissions); null when not
 * known yet (nothing is blocked on a guess: the server has the last word).
 */
export function blockedReason(op: DocumentOperation, licenceType: number | undefined, permissions: number | null): BlockedReason {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions === null) return null;
  if (op === 'delete' && !(permissions & ARCHIVE_PERMISSIONS.delete)) return 'DOCUMENTS_NO_DELETE_RIGHT';
  if (op === 'Move' && !(permissions & ARCHIVE_PERMISSIONS.move)) return 'DOCUMENTS_NO_MOVE_RIGHT';
  if (op === 'Copy' && !(permissions & ARCHIVE_PERMISSIONS.view)) return 'DOCUMENTS_NO_VIEW_RIGHT';
  return null;
}

/** E-mail (the user-app spec §6): bit 32 on the archive; the read-only licence may not (the server refuses both). */
/** `configured`: whether the server can send e-mail (false: not set up there); undefined while not known. */
export function emailBlockedReason(licenceType: number | undefined, permissions: number | null, configured?: boolean): BlockedReason {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions !== null && !(permissions & ARCHIVE_PERMISSIONS.email)) return 'DOCUMENTS_NO_EMAIL_RIGHT';
  if (configured === false) return 'DOCUMENTS_EMAIL_NOT_SET_UP';
  return null;
}

export type MergeType = 'Merge' | 'Append';

/**
 * Merge and append (the user-app spec §6: licence type 4 disables both; archive bits 2 merge, 4 append on
 * the grid's archive, where the base document is). The server checks the same and more (the bit on
 * the archive of every document a merge removes, inbox rights).
 */
export function mergeBlockedReason(type: MergeType, licenceType: number | undefined, permissions: number | null): BlockedReason {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions === null) return null;
  if (type === 'Merge' && !(permissions & ARCHIVE_PERMISSIONS.merge)) return 'DOCUMENTS_NO_MERGE_RIGHT';
  if (type === 'Append' && !(permissions & ARCHIVE_PERMISSIONS.append)) return 'DOCUMENTS_NO_APPEND_RIGHT';
  return null;
}

export type MergeCountProblem = 'ERROR_NO_DOCUMENTS_SELECTED' | 'DOCUMENTS_MERGE_NEEDS_TWO' | 'DOCUMENTS_APPEND_NEEDS_ONE' | 'DOCUMENTS_MERGE_TOO_MANY' | null;

/**
 * the user-app spec §5: "Merge needs at least 2 checked documents; append needs exactly 1. No documents
 * selected gives an error for every bulk action." A merge also takes at most MERGE_MAX_DOCUMENTS.
 */
export function mergeCountProblem(type: MergeType, checked: number): MergeCountProblem {
  if (checked === 0) return 'ERROR_NO_DOCUMENTS_SELECTED';
  if (type === 'Append') return checked === 1 ? null : 'DOCUMENTS_APPEND_NEEDS_ONE';
  if (checked < 2) return 'DOCUMENTS_MERGE_NEEDS_TWO';
  return checked > MERGE_MAX_DOCUMENTS ? 'DOCUMENTS_MERGE_TOO_MANY' : null;
}

/** The list after moving the item at `index` by `delta` places (clamped); the same list when it cannot move. */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = Math.min(list.length - 1, Math.max(0, index + delta));
  if (index < 0 || index >= list.length || to === index) return [...list];
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item!);
  return out;
}

export interface Destination {
  id: number;
  name: string;
}

/** The archives documents of `sourceId` may be copied or moved to, in the server's order. */
export function destinations(archives: readonly Archive[], sourceId: number): Destination[] {
  const out: Destination[] = [];
  for (const a of archives) {
    const id = a.Id ?? a.ID;
    if (id === undefined || id === sourceId) continue;
    if (!((a.Permissions ?? 0) & ARCHIVE_PERMISSIONS.add)) continue;
    if ((a.Props ?? 0) & ARCHIVE_PROPS.versionsArchive) continue;
    out.push({ id, name: a.Name });
  }
  return out;
}
