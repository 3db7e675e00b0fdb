/**
 * Single download and Web Share of a document (the user-app spec §6 bit 128 export; §7 `.../file`): who may
 * start it, whether this device can share files, and which words a failure gets. Pure: unit-tested
 * without a browser. The server enforces the same right.
 */
import { isApiError } from '../../api/api-error';
import { ARCHIVE_PERMISSIONS } from '../../api/archives';

/** Why Download and Share cannot be started (a translation key), or null when they can. */
export type FileBlockedReason = 'DOCUMENTS_NO_EXPORT_RIGHT' | null;

/**
 * Export (128) on the archive; null permissions (not known yet) block nothing. The read-only licence
 * is no reason: the spec disables Excel export for it, not export, and reading a file changes nothing.
 */
export function fileBlockedReason(permissions: number | null): FileBlockedReason {
  if (permissions !== null && !(permissions & ARCHIVE_PERMISSIONS.export)) return 'DOCUMENTS_NO_EXPORT_RIGHT';
  return null;
}

interface ShareNavigator {
  canShare?: (data: { files?: File[] }) => boolean;
  share?: (data: { files?: File[]; title?: string }) => Promise<void>;
}

/**
 * Whether this device can share a file to another app (Web Share API level 2): asked with a small
 * PDF, the kind most documents are. The real file is asked again when it is shared.
 */
export function canShareFiles(nav: ShareNavigator = globalThis.navigator as unknown as ShareNavigator): boolean {
  if (typeof nav?.canShare !== 'function' || typeof nav.share !== 'function') return false;
  try {
    return nav.canShare({ files: [new File([new Uint8Array(0)], 'document.pdf', { type: 'application/pdf' })] });
  } catch {
    return false;
  }
}

export type FileFailure = 'DOCUMENTS_FILE_OFFLINE' | 'DOCUMENTS_FILE_FORBIDDEN' | 'DOCUMENTS_FILE_NOT_FOUND' | null;

/** The words of a failed download or share; null: the app's one error handler decides. */
export function fileFailure(e: unknown, online = true): FileFailure {
  if (!online) return 'DOCUMENTS_FILE_OFFLINE';
  if (!isApiError(e)) return null;
  if (e.kind === 'network') return 'DOCUMENTS_FILE_OFFLINE';
  if (e.kind === 'http' && e.status === 403 && !e.loginRedirect) return 'DOCUMENTS_FILE_FORBIDDEN';
  if (e.kind === 'http' && e.status === 404) return 'DOCUMENTS_FILE_NOT_FOUND';
  return null;
}
