// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportNote } from '../../src/api/export';
import type { JobRecord } from '../../src/db/db';
import { JobItem } from '../../src/features/notifications/components/job-item';
import { formatSize } from '../../src/features/notifications/components/export-note';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

const note = (patch: Partial<ExportNote> = {}): ExportNote => ({ JobId: 7, FileName: 'export-7.zip', Size: 1_234_567, Format: 'zip', Expires: new Date(Date.now() + 3_600_000).toISOString(), ...patch });
const job = (n: ExportNote, patch: Partial<JobRecord> = {}): JobRecord => ({
  id: '7', dbId: 1, kind: 'export', state: 'done', progress: 3, total: 3, succeeded: 3, failed: 0, title: 'Export 3 documents',
  startedAt: 1, updatedAt: 1, nextPollAt: 0, notes: [[1, n]], ...patch,
});
const show = (r: JobRecord, onDownload?: (db: number, n: ExportNote) => Promise<unknown>) =>
  render(
    <I18nextProvider i18n={i18n}>
      <ul>
        <JobItem job={r} onDownloadExport={onDownload} />
      </ul>
    </I18nextProvider>,
  );

describe('a finished export in the tray', () => {
  it('shows its file, size and until when it is kept, and Download hands the note to the save code', async () => {
    const calls: [number, ExportNote][] = [];
    const n = note();
    show(job(n), async (dbId, x) => void calls.push([dbId, x]));
    expect(screen.getByText('export-7.zip, 1.2 MB')).toBeTruthy();
    expect(screen.getByText(/^available until /)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download export-7.zip' }));
    await waitFor(() => expect(calls).toEqual([[1, n]]));
  });

  it('once its time has passed it says it expired and offers no Download', () => {
    show(job(note({ Expires: new Date(Date.now() - 1000).toISOString() })), async () => undefined);
    expect(screen.getByText(/^expired on .*start the export again/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Download/ })).toBeNull();
  });

  it('says in words why a download did not happen; a 410 turns the card to expired', async () => {
    const problem = vi.fn<(db: number, n: ExportNote) => Promise<unknown>>().mockRejectedValueOnce({ problem: 'ERROR_EXPORT_NOT_READY' }).mockRejectedValueOnce({ problem: 'ERROR_EXPORT_EXPIRED' });
    show(job(note()), problem);
    fireEvent.click(screen.getByRole('button', { name: 'Download export-7.zip' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The export is still being prepared: download it when it is done.');
    fireEvent.click(screen.getByRole('button', { name: 'Download export-7.zip' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This export has expired and was removed from the server: start it again.'));
    expect(screen.queryByRole('button', { name: /^Download/ })).toBeNull();
  });

  it('Save to folder only where the browser can pick a folder: progress (written of size), Cancel, then where it went or why not', async () => {
    show(job(note()), async () => undefined);
    expect(screen.queryByRole('button', { name: 'Save export-7.zip to a folder' })).toBeNull();
    cleanup();
    vi.stubGlobal('showDirectoryPicker', async () => ({}));
    try {
      let finish: (v: unknown) => void = () => undefined;
      let seen: { toFolder?: boolean; onProgress?: (n: number) => void; signal?: AbortSignal } | undefined;
      const save = vi.fn((_db: number, _n: ExportNote, o?: typeof seen) => {
        seen = o;
        return new Promise((resolve) => (finish = resolve));
      });
      show(job(note()), save);
      fireEvent.click(screen.getByRole('button', { name: 'Save export-7.zip to a folder' }));
      expect(seen?.toFolder).toBe(true);
      act(() => seen!.onProgress!(500_000));
      expect(screen.getByTestId('export-folder-progress-7').textContent).toBe('500 kB of 1.2 MB written');
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(seen!.signal!.aborted).toBe(true);
      finish({ outcome: 'saved', folder: 'Downloads/export-7' });
      expect(await screen.findByText('Saved in the folder Downloads/export-7.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
      save.mockRejectedValueOnce({ problem: 'EXPORT_FOLDER_FULL' });
      fireEvent.click(screen.getByRole('button', { name: 'Save export-7.zip to a folder' }));
      expect((await screen.findByRole('alert')).textContent).toBe('The disk is full: free some space and save again.');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('an export job with no title of its own is named from its kind and count, as the server list gives it', () => {
    show(job(note(), { title: undefined }));
    expect(screen.getByRole('listitem', { name: 'Export 3 documents' })).toBeTruthy();
  });
});

describe('sizes', () => {
  it('are written in the user\'s locale', () => {
    expect(formatSize(512, 'en')).toBe('0.5 kB');
    expect(formatSize(148_454, 'en')).toBe('148.5 kB');
    expect(formatSize(1_234_567, 'en')).toBe('1.2 MB');
    expect(formatSize(1_234_567, 'de')).toBe('1,2 MB');
  });
});
