/**
 * Download and Share of one document (issue 10 items 1 and 3; the user-app spec §7 single export): the file
 * is fetched with the token in a header (api/document-file.ts), then saved (src/platform/save-file.ts:
 * a picked file, streamed, or a download) or shared to another app through the Web Share API as a
 * File named as the server names it. Both need the server now: offline they say so. Each writes the
 * document's 'exported' history entry on the server. State: only a file waiting for a second tap to
 * be shared (see ShareReadyModal), in memory.
 */
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbortError } from '../../api/api-error';
import { handleError } from '../../api/error-handler';
import { saveResponse } from '../../platform/save-file';
import { notify } from '../../ui/notifications';
import { fetchDocumentFile, type FileDoc } from '../../api/document-file';
import { ShareReadyModal } from './components/share-ready-modal';
import { canShareFiles, fileFailure } from './document-file-rules';
import { isOnline } from '../../api/connectivity';

export interface DocumentFileActions {
  download: (doc: FileDoc) => Promise<void>;
  share: (doc: FileDoc & { title?: string }) => Promise<void>;
  /** This device can share files to other apps (otherwise Share is not offered). */
  canShare: boolean;
  dialog: ReactNode;
}

interface ShareNavigator {
  canShare(data: { files: File[] }): boolean;
  share(data: { files: File[]; title?: string }): Promise<void>;
}
const shareNavigator = () => navigator as unknown as ShareNavigator;

export function useDocumentFile(dbId: number): DocumentFileActions {
  const { t } = useTranslation();
  const [ready, setReady] = useState<File | null>(null);
  const canShare = useMemo(() => canShareFiles(), []);

  const fail = useCallback(
    (e: unknown) => {
      if (isAbortError(e)) return;
      const key = fileFailure(e, isOnline());
      if (key) notify('error', t(key));
      else handleError(e);
    },
    [t],
  );

  const download = useCallback(
    async (doc: FileDoc) => {
      if (!isOnline()) return fail(null);
      try {
        const f = await fetchDocumentFile(dbId, doc, { auditEntry: true });
        const outcome = await saveResponse(f.response, f.name, f.type);
        if (outcome === 'saved') notify('info', t('DOCUMENTS_FILE_SAVED', { name: f.name }));
      } catch (e) {
        fail(e);
      }
    },
    [dbId, fail, t],
  );

  // navigator.share is called before this function's first await, so a tap's gesture still counts.
  const shareNow = useCallback(
    async (file: File, title?: string) => {
      try {
        await shareNavigator().share({ files: [file], title: title || file.name });
      } catch (e) {
        const name = (e as { name?: string })?.name;
        // The user closed the share sheet: nothing to say.
        if (name === 'AbortError') return;
        if (name === 'NotAllowedError') setReady(file);
        else notify('error', t('DOCUMENTS_SHARE_FAILED'));
      }
    },
    [t],
  );

  const share = useCallback(
    async (doc: FileDoc & { title?: string }) => {
      if (!isOnline()) return fail(null);
      let file: File;
      try {
        const f = await fetchDocumentFile(dbId, doc, { auditEntry: true });
        // Sharing hands the other app a whole File: it is read into memory (a document, not an export).
        file = new File([await f.response.blob()], f.name, { type: f.type });
      } catch (e) {
        return fail(e);
      }
      if (!shareNavigator().canShare({ files: [file] })) {
        notify('error', t('DOCUMENTS_SHARE_UNSUPPORTED', { name: file.name }));
        return;
      }
      await shareNow(file, doc.title);
    },
    [dbId, fail, shareNow, t],
  );

  const dialog = (
    <ShareReadyModal
      file={ready}
      onShare={() => {
        const file = ready;
        setReady(null);
        if (file) void shareNow(file);
      }}
      onClose={() => setReady(null)}
    />
  );
  return { download, share, canShare, dialog };
}
