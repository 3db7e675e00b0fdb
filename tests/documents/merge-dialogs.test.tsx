// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/app/query-client';
import { AppendModal } from '../../src/features/documents/components/append-modal';
import { MergeModal } from '../../src/features/documents/components/merge-modal';
import { i18n } from '../../src/i18n/i18n';
import { setSession } from '../../src/session/session';
import { jsonResponse } from '../api/fake-fetch';
import { serveFake } from '../support/app-harness';

afterEach(() => cleanup());

const withProviders = (ui: React.ReactNode) =>
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>
    </I18nextProvider>,
  );

describe('the merge dialog', () => {
  it('lists the documents in order, the first as base; Up/Down reorder them and the confirmed order is the merge order', () => {
    const onConfirm = vi.fn();
    const docs = ['A', 'B', 'C'].map((t, i) => ({ id: i + 1, hash: `h${i}`, archiveId: 6, title: `Doc ${t}` }));
    withProviders(<MergeModal open docs={docs} onConfirm={onConfirm} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Merge 3 documents' });
    const names = () => within(dialog).getAllByRole('listitem').map((li) => li.querySelector('.documents-merge-name')!.textContent);
    expect(names()).toEqual(['Doc ABase document', 'Doc B', 'Doc C']);
    expect(within(dialog).getByRole('button', { name: 'Move Doc A up' })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Doc B up' }));
    expect(names()).toEqual(['Doc BBase document', 'Doc A', 'Doc C']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Doc A down' }));
    expect(names()).toEqual(['Doc BBase document', 'Doc C', 'Doc A']);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Keep the other documents' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Merge' }));
    expect(onConfirm).toHaveBeenCalledWith([docs[1], docs[2], docs[0]], 'Keep');
  });

  it('does not preselect Remove: confirmed as it opens, the other documents are kept', () => {
    const onConfirm = vi.fn();
    const docs = ['A', 'B'].map((t, i) => ({ id: i + 1, hash: `h${i}`, archiveId: 6, title: `Doc ${t}` }));
    withProviders(<MergeModal open docs={docs} onConfirm={onConfirm} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Merge 2 documents' });
    expect(within(dialog).getByRole('radio', { name: 'Remove the other documents' })).toHaveProperty('checked', false);
    expect(within(dialog).getByRole('radio', { name: 'Keep the other documents' })).toHaveProperty('checked', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Merge' }));
    expect(onConfirm).toHaveBeenCalledWith(docs, 'Keep');
  });
});

describe('the inbox-document selector (append)', () => {
  it('offers the inboxes of this database, pages through a file list, and confirms the chosen file with Keep or Remove', async () => {
    const calls: URL[] = [];
    const file = (n: number) => ({ FileName: `file-${String(n).padStart(2, '0')}.pdf`, Path: `file-${String(n).padStart(2, '0')}.pdf`, FileType: 'PDF', DateCreated: '2026-01-05T09:00:00Z', DateModified: '2026-01-05T09:00:00Z', InboxId: 1 });
    serveFake(
      (url) => {
        if (url.pathname !== '/api/inboxes') return jsonResponse({ Message: 'no' }, { status: 404 });
        if (!url.searchParams.get('Id')) return jsonResponse([{ Id: 1, Name: 'Scans', Count: 30, DatabaseId: 1 }, { Id: 9, Name: 'Elsewhere', Count: 2, DatabaseId: 2 }]);
        const page = Number(url.searchParams.get('pageNumber'));
        const size = Number(url.searchParams.get('numberOfDocuments'));
        const files = Array.from({ length: 30 }, (_, i) => file(i + 1)).slice((page - 1) * size, page * size);
        return jsonResponse({ Count: 30, Files: files });
      },
      (url) => calls.push(url),
    );
    await setSession({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });
    const onConfirm = vi.fn();
    withProviders(<AppendModal open scope="user|1" dbId={1} title="Invoice 12" onConfirm={onConfirm} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Append an inbox file to Invoice 12' });
    await within(dialog).findByRole('radio', { name: /^file-01\.pdf/ });
    // Only the inboxes of this database.
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['Scans (30)']);
    expect(within(dialog).getByText('Page 1 of 2')).toBeTruthy();
    expect(within(dialog).getAllByRole('radio', { name: /^file-/ })).toHaveLength(25);
    const append = within(dialog).getByRole('button', { name: 'Append' });
    expect(append).toHaveProperty('disabled', true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Next page' }));
    await within(dialog).findByRole('radio', { name: /^file-27\.pdf/ });
    const last = calls.at(-1)!;
    expect(Object.fromEntries(last.searchParams)).toMatchObject({ Id: '1', pageNumber: '2', numberOfDocuments: '25' });
    expect(within(dialog).getAllByRole('radio', { name: /^file-/ })).toHaveLength(5);

    fireEvent.click(within(dialog).getByRole('radio', { name: /^file-27\.pdf/ }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Keep the file in its inbox' }));
    await waitFor(() => expect(append).toHaveProperty('disabled', false));
    fireEvent.click(append);
    expect(onConfirm).toHaveBeenCalledWith({ inboxId: 1, inboxName: 'Scans', path: 'file-27.pdf', fileName: 'file-27.pdf' }, 'Keep');
  });

  it('says why when the inboxes cannot be listed (the server\'s Message), instead of "no inbox"', async () => {
    await setSession({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });
    serveFake(() => jsonResponse({ Message: 'You do not have permission to view inbox Scans', Key: 'ERROR_FAILED_DUE_TO_PERMISSIONS' }, { status: 403 }), () => undefined);
    withProviders(<AppendModal open scope="user|2" dbId={1} title="Invoice 12" onConfirm={() => undefined} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Append an inbox file to Invoice 12' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('You do not have permission to view inbox Scans');
    expect(within(dialog).queryByText('You have no inbox to append from.')).toBeNull();
  });
});
