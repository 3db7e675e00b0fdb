import { useTranslation } from 'react-i18next';
import { ExportNote } from '../../../api/export';
import { ExportNoteLine, type DownloadExport } from './export-note';

/** The words of a counts note's Action (the job kinds that write one). */
const ACTION_WORDS = { copy: 'JOB_ACTION_COPY', move: 'JOB_ACTION_MOVE', delete: 'JOB_ACTION_DELETE', 'bulk-update': 'JOB_ACTION_BULK_UPDATE', import: 'JOB_ACTION_IMPORT' } as const;

/**
 * One job note (the user-app spec §3: an array whose first element is the kind) as one line of the tray:
 * 0, 7 and 8 errors (red), 1 an export with its job id (its file, size, expiry and Download when the
 * note is an ExportNote), 2 info,
 * 3 information, 4 a link, 5 copy/move/delete with its counts, 6 the extensions link. A note of a
 * kind this app does not know is shown as its text, never dropped.
 */
export function JobNoteLine({ note, dbId, onDownload }: { note: readonly unknown[]; dbId?: number; onDownload?: DownloadExport }) {
  const { t } = useTranslation();
  const [kind, ...values] = note;
  const strings = values.filter((v): v is string => typeof v === 'string');
  const url = strings.find(isSafeUrl);
  const text = strings.find((s) => s !== url) ?? '';
  switch (kind) {
    case 0:
    case 7:
    case 8:
      return (
        <li className="job-note job-note-error" data-note-kind={kind}>
          {text || plain(values)}
        </li>
      );
    case 1: {
      // An export job's note (src/api/export.ts): the file, until when it is kept, and Download.
      const file = ExportNote.safeParse(values[0]);
      if (file.success && dbId !== undefined) return <ExportNoteLine note={file.data} dbId={dbId} onDownload={onDownload} />;
      const id = values.find((v) => typeof v === 'number' || (typeof v === 'string' && v !== url)) ?? '';
      return (
        <li className="job-note" data-note-kind={kind}>
          {t('JOB_NOTE_EXPORT', { id: String(id) })}
          {url && (
            <>
              {' '}
              <a href={url} className="job-note-link" download>
                {t('JOB_NOTE_DOWNLOAD')}
              </a>
            </>
          )}
        </li>
      );
    }
    case 4:
      return (
        <li className="job-note" data-note-kind={kind}>
          {url ? (
            <a href={url} className="job-note-link" target="_blank" rel="noreferrer">
              {text || url}
            </a>
          ) : (
            text
          )}
        </li>
      );
    case 5: {
      const c = (values[0] ?? {}) as { Action?: unknown; Count?: unknown; Succeeded?: unknown; Failed?: unknown };
      const action = String(c.Action ?? '').toLowerCase();
      const words = action in ACTION_WORDS ? t(ACTION_WORDS[action as keyof typeof ACTION_WORDS]) : action;
      return (
        <li className="job-note" data-note-kind={kind}>
          {t('JOB_NOTE_COUNTS', { action: words, count: num(c.Count), succeeded: num(c.Succeeded), failed: num(c.Failed) })}
        </li>
      );
    }
    case 6:
      return (
        <li className="job-note" data-note-kind={kind}>
          {url ? (
            <a href={url} className="job-note-link" target="_blank" rel="noreferrer">
              {t('JOB_NOTE_EXTENSIONS')}
            </a>
          ) : (
            t('JOB_NOTE_EXTENSIONS')
          )}
        </li>
      );
    default:
      return (
        <li className="job-note" data-note-kind={String(kind)}>
          {text || plain(values)}
        </li>
      );
  }
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Links from the server go to http(s) or the app's own paths; never javascript: or data:. */
function isSafeUrl(s: string): boolean {
  return /^https?:\/\//i.test(s) || (s.startsWith('/') && !s.startsWith('//'));
}

function plain(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v))).join(' ');
}
