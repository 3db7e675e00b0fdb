/**
 * Which document actions a user may start, and where copied or moved documents may go (user-app.md §6:
 * licence type 4 disables delete, move and copy; archive bits 8 delete, 131072 move; archive-inbox-ops.md
 * §4: add (2) on the destination; a versions archive (Props 16) is never a destination). The server
 * enforces the same rules: this only keeps the user from starting what would be refused.
 */
import { ARCHIVE_PERMISSIONS, ARCHIVE_PROPS, type Archive } from '../../api/archives';
import type { DocumentOperation } from '../../api/documents';

export const READ_ONLY_LICENCE = 4;

/** Why the action cannot be started (a translation key), or null when it can. */
export type BlockedReason = 'DOCUMENTS_READ_ONLY_LICENCE' | 'DOCUMENTS_NO_DELETE_RIGHT' | 'DOCUMENTS_NO_MOVE_RIGHT' | 'DOCUMENTS_NO_VIEW_RIGHT' | 'DOCUMENTS_NO_EMAIL_RIGHT' | null;

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

/** E-mail (user-app.md §6): bit 32 on the archive; the read-only licence may not (the server refuses both). */
export function emailBlockedReason(licenceType: number | undefined, permissions: number | null): BlockedReason {
  if (licenceType === READ_ONLY_LICENCE) return 'DOCUMENTS_READ_ONLY_LICENCE';
  if (permissions !== null && !(permissions & ARCHIVE_PERMISSIONS.email)) return 'DOCUMENTS_NO_EMAIL_RIGHT';
  return null;
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
