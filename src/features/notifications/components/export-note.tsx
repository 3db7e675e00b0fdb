import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EXPORT_EXPIRED_KEY, type ExportNote } from '../../../api/export';
import { hasFolderPicker } from '../../../platform/pick-folder';

/**
 * How the tray fetches a finished export: given by the app (src/app/header.tsx composes the export
 * feature's save code), so this feature does not import another. It rejects with an error whose
 * `problem` is a translation key (still being prepared, expired, offline ...).
 */
export type DownloadExport = (dbId: number, note: ExportNote, options?: SaveToFolderOptions) => Promise<unknown>;

/**
 * Save to folder: the zip unpacked into a folder the user picks as it streams (an .xlsx: one file).
 * Resolves { outcome: 'saved', folder } or { outcome: 'cancelled' }.
 */
export interface SaveToFolderOptions {
  toFolder: true;
  /** Bytes of the export's file received and written so far. */
  onProgress?: (bytes: number) => void;
  signal?: AbortSignal;
}

/** Sizes as people read them: kB, MB, GB in the user's locale ('byte' reads oddly in short form, so small files are 0.5 kB). */
export function formatSize(bytes: number, locale: string): string {
  const units = ['kilobyte', 'megabyte', 'gigabyte'] as const;
  let v = bytes / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[i], unitDisplay: 'short', maximumFractionDigits: 1 }).format(v);
}

/**
 * A finished export in the tray (job note kind 1 with its ExportNote): the file's name and size, until
 * when the server keeps it, and Download; once that time has passed it says the file has expired
 * (the server then answers 410 and has removed it). The record lives in the Dexie jobs table, so this
 * is still here after a reload or with the tab closed and opened again.
 */
export function ExportNoteLine({ note, dbId, onDownload }: { note: ExportNote; dbId: number; onDownload?: DownloadExport }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Save to folder: bytes written so far (null when not saving), the Cancel, and where it went.
  const [written, setWritten] = useState<number | null>(null);
  const [savedIn, setSavedIn] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const canPickFolder = hasFolderPicker();
  const expires = Date.parse(note.Expires);
  const [expired, setExpired] = useState(() => Number.isFinite(expires) && expires <= Date.now());
  // The card turns to "expired" when the time comes while the tray is open (timers cap at ~24.8 days).
  useEffect(() => {
    if (expired || !Number.isFinite(expires)) return;
    const id = setTimeout(() => setExpired(true), Math.min(Math.max(0, expires - Date.now()), 2 ** 31 - 1));
    return () => clearTimeout(id);
  }, [expired, expires]);
  const when = Number.isFinite(expires) ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(expires)) : note.Expires;

  const fail = (e: unknown) => {
    const key = (e as { problem?: unknown } | null)?.problem;
    if (key === EXPORT_EXPIRED_KEY) setExpired(true);
    setProblem(typeof key === 'string' && i18n.exists(key) ? t(key as 'EXPORT_DOWNLOAD_FAILED') : t('EXPORT_DOWNLOAD_FAILED'));
  };

  const saveToFolder = () => {
    if (!onDownload || busy) return;
    const abort = new AbortController();
    abortRef.current = abort;
    setBusy(true);
    setProblem(null);
    setSavedIn(null);
    setWritten(0);
    onDownload(dbId, note, { toFolder: true, onProgress: setWritten, signal: abort.signal })
      .then((r) => {
        const folder = (r as { folder?: unknown } | null)?.folder;
        if (typeof folder === 'string') setSavedIn(folder);
      })
      .catch(fail)
      .finally(() => {
        abortRef.current = null;
        setWritten(null);
        setBusy(false);
      });
  };

  const download = () => {
    if (!onDownload || busy) return;
    setBusy(true);
    setProblem(null);
    onDownload(dbId, note)
      .catch((e: unknown) => {
        const key = (e as { problem?: unknown } | null)?.problem;
        // The server removed it sooner than this device's clock said (410): the card says so.
        if (key === EXPORT_EXPIRED_KEY) setExpired(true);
        setProblem(typeof key === 'string' && i18n.exists(key) ? t(key as 'EXPORT_DOWNLOAD_FAILED') : t('EXPORT_DOWNLOAD_FAILED'));
      })
      .finally(() => setBusy(false));
  };

  return (
    <li className="job-note job-note-export" data-note-kind={1}>
      <span className="job-note-file" data-testid={`export-file-${note.JobId}`}>
        {t('EXPORT_NOTE_FILE', { name: note.FileName, size: formatSize(note.Size, i18n.language) })}
      </span>
      {' · '}
      <span className={expired ? 'job-note-expired' : undefined}>{expired ? t('EXPORT_NOTE_EXPIRED', { time: when }) : t('EXPORT_NOTE_AVAILABLE_UNTIL', { time: when })}</span>
      {!expired && onDownload && (
        <div className="outbox-actions">
          <button type="button" className="button button-primary" disabled={busy} aria-label={t('EXPORT_DOWNLOAD_NAMED', { name: note.FileName })} onClick={download}>
            {busy && written === null ? t('EXPORT_DOWNLOADING') : t('JOB_NOTE_DOWNLOAD')}
          </button>
          {canPickFolder && (
            <button type="button" className="button" disabled={busy} aria-label={t('EXPORT_SAVE_TO_FOLDER_NAMED', { name: note.FileName })} onClick={saveToFolder}>
              {t('EXPORT_SAVE_TO_FOLDER')}
            </button>
          )}
          {written !== null && (
            <button type="button" className="button" onClick={() => abortRef.current?.abort()}>
              {t('OUTBOX_CANCEL')}
            </button>
          )}
        </div>
      )}
      {written !== null && (
        <p className="job-line" role="status" data-testid={`export-folder-progress-${note.JobId}`}>
          {t('EXPORT_FOLDER_PROGRESS', { written: formatSize(written, i18n.language), size: formatSize(note.Size, i18n.language) })}
        </p>
      )}
      {savedIn && (
        <p className="job-line" role="status">
          {t('EXPORT_FOLDER_SAVED', { folder: savedIn })}
        </p>
      )}
      {problem && (
        <p className="job-line job-outcome-bad" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
