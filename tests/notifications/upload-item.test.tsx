// @vitest-environment happy-dom
/** The tray's upload row (upload-item.tsx): what each state shows and which controls it offers. */
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadRecord } from '../../src/db/db';
import { UploadItem } from '../../src/features/notifications/components/upload-item';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

const base: UploadRecord = {
  id: 'u1',
  owner: 'user',
  target: { InboxID: 1 },
  file: new Blob(['x']),
  fileName: 'scan.pdf',
  size: 5 * 1_048_576,
  type: 'application/pdf',
  attempt: 1,
  nextIndex: 2,
  chunkSize: 1_048_576,
  chunkCount: 5,
  highestSent: 2,
  resent: 0,
  state: 'sending',
  createdAt: 0,
  updatedAt: 0,
};

function renderRow(patch: Partial<UploadRecord>) {
  render(
    <I18nextProvider i18n={i18n}>
      <ul>
        <UploadItem upload={{ ...base, ...patch }} />
      </ul>
    </I18nextProvider>,
  );
  return screen.getByRole('listitem', { name: 'scan.pdf' });
}

const buttons = (row: HTMLElement) => within(row).queryAllByRole('button').map((b) => b.textContent);

describe('an upload in the tray', () => {
  it('while it sends: state, per cent of the size, Pause and Cancel upload', () => {
    const row = renderRow({});
    expect(within(row).getByText('Uploading')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: 'Upload of scan.pdf' }).getAttribute('value')).toBe('40');
    expect(within(row).getByText('40% of 5.2 MB')).toBeTruthy();
    expect(buttons(row)).toEqual(['Pause', 'Cancel upload']);
  });

  it('waiting for the connection says so; paused does not repeat the old reason and offers Resume', () => {
    const waiting = renderRow({ state: 'waiting', reason: { key: 'UPLOAD_WAITING_CONNECTION' } });
    expect(within(waiting).getByText(/connection dropped/)).toBeTruthy();
    cleanup();
    const paused = renderRow({ state: 'paused', reason: { key: 'UPLOAD_WAITING_CONNECTION' } });
    expect(within(paused).queryByText(/connection dropped/)).toBeNull();
    expect(buttons(paused)).toEqual(['Resume', 'Cancel upload']);
  });

  it('failed: the catalogue\'s words and the server\'s own, Retry and Remove', () => {
    const row = renderRow({ state: 'failed', reason: { key: 'ERROR_FILE_UPLOAD_FAILED', message: 'scan.pdf: the uploaded file does not match its checksum', status: 422 } });
    expect(within(row).getByRole('alert').textContent).toBe('The file upload failed.');
    expect(within(row).getByText(/does not match its checksum/)).toBeTruthy();
    expect(buttons(row)).toEqual(['Retry', 'Remove']);
  });

  it('refused for its size: why in the user\'s words, and the sizes in the server\'s', () => {
    const tooLarge = renderRow({ state: 'failed', reason: { key: 'UPLOAD_TOO_LARGE', message: 'scan.pdf is 3 GiB; this server takes files of at most 2 GiB', status: 413 } });
    expect(within(tooLarge).getByRole('alert').textContent).toBe('The file is larger than the server accepts.');
    expect(within(tooLarge).getByText('scan.pdf is 3 GiB; this server takes files of at most 2 GiB')).toBeTruthy();
    cleanup();
    const staged = renderRow({ state: 'failed', reason: { key: 'UPLOAD_STAGED_LIMIT', message: 'Your unfinished uploads hold 4 GiB and scan.pdf is 5 MiB', status: 413 } });
    expect(within(staged).getByRole('alert').textContent).toMatch(/^Your unfinished uploads already take up the space/);
    expect(buttons(staged)).toEqual(['Retry', 'Remove']);
  });

  it('done: 100%, where it went, Remove', () => {
    const row = renderRow({ state: 'done', nextIndex: 5, file: undefined, result: { InboxID: 1, Path: 'scan (2).pdf', Sha256: 'ab' } });
    expect(within(row).getByRole('progressbar').getAttribute('value')).toBe('100');
    expect(within(row).getByText('Saved as scan (2).pdf')).toBeTruthy();
    expect(buttons(row)).toEqual(['Remove']);
  });
});
