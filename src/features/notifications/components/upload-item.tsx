import { useTranslation } from 'react-i18next';
import type { UploadRecord } from '../../../db/db';
import { sizeWords } from '../size-words';
import { pauseUpload, removeUpload, resumeUpload, retryUpload, uploadPercent } from '../../../sync/uploads';


/**
 * One upload in the tray (src/sync/uploads.ts): the file's name and size, its state and how much
 * the server has (a progress bar and a per cent), why it waits or failed, and Pause / Resume /
 * Cancel while it runs, Retry and Remove once it failed, Remove once it is done. The row is written
 * by the upload worker once per chunk; this only reads it.
 */
export function UploadItem({ upload }: { upload: UploadRecord }) {
  const { t, i18n } = useTranslation();
  const percent = uploadPercent(upload);
  const running = upload.state === 'queued' || upload.state === 'hashing' || upload.state === 'sending' || upload.state === 'waiting';
  // Why it waits is only news while it waits (a paused or finished upload's old reason is not).
  const reasonShown = upload.state === 'waiting' || upload.state === 'queued' || upload.state === 'failed';
  const reason = upload.reason && reasonShown
    ? upload.reason.key === 'ZERO_BYTE_FILE_REMOVED_MSG'
      ? t('ZERO_BYTE_FILE_REMOVED_MSG', { name: upload.fileName })
      : i18n.exists(upload.reason.key)
        ? t(upload.reason.key as 'ERROR_FILE_UPLOAD_FAILED')
        : (upload.reason.message ?? t('ERROR_FILE_UPLOAD_FAILED'))
    : null;
  // The server's own words add what the key cannot (which file, which right); shown when they differ.
  const detail = upload.state === 'failed' && upload.reason?.message && upload.reason.message !== reason ? upload.reason.message : null;
  const where = upload.result && 'Path' in upload.result ? upload.result.Path : null;

  return (
    <li className={`job-card upload-card upload-card-${upload.state}`} aria-label={upload.fileName} data-testid={`upload-${upload.id}`}>
      <div className="outbox-entry-head">
        <span className="outbox-entry-title upload-name">{upload.fileName}</span>
        <span className={`badge upload-state upload-state-${upload.state}`}>{t(`UPLOAD_STATE_${upload.state.toUpperCase()}` as 'UPLOAD_STATE_SENDING')}</span>
      </div>
      <progress className="job-progress" max={100} value={percent} aria-label={t('UPLOAD_PROGRESS_LABEL', { name: upload.fileName })} />
      <p className="job-line">{t('UPLOAD_PROGRESS', { percent, size: sizeWords(upload.size, i18n.language) })}</p>
      {where && upload.state === 'done' && <p className="job-line">{t('UPLOAD_SAVED_AS', { name: where })}</p>}
      {reason && upload.state !== 'done' && (
        <p className={upload.state === 'failed' ? 'outbox-entry-error' : 'outbox-entry-note'} role={upload.state === 'failed' ? 'alert' : undefined}>
          {reason}
        </p>
      )}
      {detail && <p className="outbox-entry-note">{detail}</p>}
      <div className="outbox-actions">
        {running && (
          <button type="button" className="button" onClick={() => void pauseUpload(upload.id)}>
            {t('UPLOAD_PAUSE')}
          </button>
        )}
        {upload.state === 'paused' && (
          <button type="button" className="button" onClick={() => void resumeUpload(upload.id)}>
            {t('UPLOAD_RESUME')}
          </button>
        )}
        {upload.state === 'failed' && upload.file && (
          <button type="button" className="button" onClick={() => void retryUpload(upload.id)}>
            {t('OUTBOX_RETRY')}
          </button>
        )}
        {(running || upload.state === 'paused') && (
          <button type="button" className="button" onClick={() => void removeUpload(upload.id)}>
            {t('UPLOAD_CANCEL')}
          </button>
        )}
        {(upload.state === 'failed' || upload.state === 'done') && (
          <button type="button" className="button" onClick={() => void removeUpload(upload.id)}>
            {t('UPLOAD_REMOVE')}
          </button>
        )}
      </div>
    </li>
  );
}
