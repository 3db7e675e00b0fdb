import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../ui/notifications';
import { splitZeroByte } from '../inbox-logic';
import { startInboxUpload } from '../upload-files';
import { ReasonedButton } from '../../../ui/reasoned-button';

/**
 * Upload into the inbox (the archive-ops spec §5-6): a button that picks files, and files dropped
 * anywhere on the inbox screen (`.inbox-screen`). Empty files are refused by name
 * (ZERO_BYTE_FILE_REMOVED_MSG); the others go to the resumable uploads (src/sync/uploads.ts) with
 * the inbox as their target, and show in the tray. Disabled without edit (4) on the inbox and for
 * the read-only licence, with the reason.
 */
export function InboxUpload(props: { inboxId: number; dbId: number; inboxName: string; canUpload: boolean; reason: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const take = (list: FileList | File[] | null) => {
    const p = latest.current;
    const files = list ? Array.from(list) : [];
    if (files.length === 0) return;
    if (!p.canUpload) {
      notify('error', p.reason);
      return;
    }
    const { send, empty } = splitZeroByte(files);
    for (const name of empty) notify('error', t('ZERO_BYTE_FILE_REMOVED_MSG', { name }));
    if (send.length) {
      void startInboxUpload(send, p.inboxId, p.dbId).then(
        (r) => {
          for (const name of r.refused) notify('error', t('ZERO_BYTE_FILE_REMOVED_MSG', { name }));
          if (r.ids.length) notify('info', t('INBOX_UPLOAD_STARTED', { count: r.ids.length, inbox: p.inboxName }));
        },
        () => notify('error', t('ERROR_FILE_UPLOAD_FAILED')),
      );
    }
  };

  // Files dropped on the inbox screen: the whole screen is the drop zone, marked while files hover.
  useEffect(() => {
    const zone = document.querySelector<HTMLElement>('.inbox-screen');
    if (!zone) return;
    let depth = 0;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      zone.classList.add('inbox-drop-active');
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = latest.current.canUpload ? 'copy' : 'none';
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) zone.classList.remove('inbox-drop-active');
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      zone.classList.remove('inbox-drop-active');
      take(e.dataTransfer?.files ?? null);
    };
    zone.addEventListener('dragenter', enter);
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', leave);
    zone.addEventListener('drop', drop);
    return () => {
      zone.removeEventListener('dragenter', enter);
      zone.removeEventListener('dragover', over);
      zone.removeEventListener('dragleave', leave);
      zone.removeEventListener('drop', drop);
    };
    // take reads the latest props through the ref; t is stable per language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <input
        id={id}
        ref={input}
        type="file"
        multiple
        hidden
        onChange={(e) => {
          take(e.target.files);
          e.target.value = '';
        }}
        aria-label={t('INBOX_UPLOAD')}
      />
      <ReasonedButton reason={props.canUpload ? null : props.reason} title={t('INBOX_DROP_HINT')} aria-description={t('INBOX_DROP_HINT')} onClick={() => input.current?.click()}>
        {t('INBOX_UPLOAD')}
      </ReasonedButton>
    </>
  );
}
