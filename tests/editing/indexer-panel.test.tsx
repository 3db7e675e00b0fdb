// @vitest-environment happy-dom
/**
 * The indexer panel's target (src/features/editing/components/indexer-panel.tsx), which key-free
 * extraction fills through (src/features/viewer/indexer-target.ts): the first editable field is
 * current; fill() puts a word through the field rules and moves on; a word a fixed list does not hold
 * gives KEYFREE_LIST_ITEM_NOT_FOUND; a low-confidence value is kept but marked with code -6's
 * message; a value the rules refuse is shown with its message and the field stays current; focus
 * chooses the current field; a document without the edit bit has none.
 */
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/app/query-client';
import { IndexerPanel, type FieldTarget } from '../../src/features/editing/components/indexer-panel';
import { i18n } from '../../src/i18n/i18n';
import { resetSessionForTests, setSession } from '../../src/session/session';
import { serveFake } from '../support/app-harness';

// No validation worker here: the server check fails, so the local rules' verdict stands (as offline).
vi.mock('../../src/features/editing/validation-bridge', () => ({ validateFields: () => Promise.reject(new Error('no worker in tests')) }));

const FIELDS = [
  { ID: 1, Name: 'Title', Type: 1, Size: 100, Prop: 2 },
  { ID: 2, Name: 'Invoice Number', Type: 2, Size: 19 },
  { ID: 5, Name: 'Department', Type: 1, Prop: 64, List: 1 },
  { ID: 10, Name: 'Tags', Type: 1, Size: 30, Prop: 32, MultiValue: true },
  { ID: 12, Name: 'Indexed By', Type: 1, Prop: 8 },
];
const doc = (permissions: number) => ({
  Id: 7,
  Hash: 'h7',
  ArchiveId: 1,
  Permissions: permissions,
  Rev: 1,
  Fields: [
    { ID: 1, VAL: 'Old title' },
    { ID: 2, VAL: '100' },
    { ID: 5, VAL: 'Sales' },
    { ID: 10, VAL: 'a', MVAL: ['a'] },
    { ID: 12, VAL: 'clerk' },
  ],
});

function renderPanel(permissions = 1 | 1024) {
  let target: FieldTarget | null = null;
  const onTarget = (t: FieldTarget | null) => {
    target = t;
  };
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>
        <IndexerPanel db={1} archiveId={1} page={{ Docs: [doc(permissions)], Fields: FIELDS }} fetchedAt={Date.now()} reload={() => undefined} onTarget={onTarget} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { target: () => target };
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  await setSession({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });
  serveFake(
    (url) => (url.pathname === '/api/dbs/1/lists/1' ? Response.json({ Items: ['Sales', 'Finance', 'IT'] }) : new Response('{}', { status: 404 })),
    () => undefined,
  );
});
afterEach(() => {
  cleanup();
  resetSessionForTests();
});

const input = (name: string) => screen.getByLabelText(name, { exact: true }) as HTMLInputElement;
const currentText = () => screen.getByTestId('indexer-current').textContent;

describe('the indexer panel as the target of key-free extraction', () => {
  it('fills field after field through the rules, and says why a word is refused', async () => {
    const p = renderPanel();
    await waitFor(() => expect(p.target()?.current).toEqual({ id: 1, name: 'Title' }));
    expect(currentText()).toBe('Filling: Title');
    expect(input('Title').closest('[data-current]')).not.toBeNull();
    // The fixed list's items are known before a word is judged against them.
    await waitFor(() => expect(screen.getByRole('option', { name: 'Finance' })).toBeTruthy());

    let r: ReturnType<FieldTarget['fill']> | undefined;
    act(() => void (r = p.target()!.fill('ACME Invoice', 97)));
    expect(r).toEqual({ ok: true, next: { id: 2, name: 'Invoice Number' } });
    expect(input('Title').value).toBe('ACME Invoice');
    await waitFor(() => expect(currentText()).toBe('Filling: Invoice Number'));

    // The rules refuse letters in a number: shown with the message, and the field stays current.
    act(() => void (r = p.target()!.fill('12ab', 97)));
    expect(r).toEqual({ ok: false, key: 'FIELD_INVALID_NUMBER' });
    expect(input('Invoice Number').value).toBe('12ab');
    expect(screen.getByText('Invalid integer or decimal value')).toBeTruthy();
    expect(p.target()!.current).toEqual({ id: 2, name: 'Invoice Number' });

    // Low confidence: kept, marked uncertain (code -6), and on to the next field.
    act(() => void (r = p.target()!.fill('1042', 42)));
    expect(r).toEqual({ ok: true, next: { id: 5, name: 'Department' } });
    expect(input('Invoice Number').value).toBe('1042');
    expect(input('Invoice Number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The extracted value is uncertain; please check it')).toBeTruthy();

    // A word the list does not hold is refused and nothing changes; the item's spelling is taken.
    act(() => void (r = p.target()!.fill('Marketing', 99)));
    expect(r).toEqual({ ok: false, key: 'KEYFREE_LIST_ITEM_NOT_FOUND' });
    expect((input('Department') as unknown as HTMLSelectElement).value).toBe('Sales');
    act(() => void (r = p.target()!.fill('finance', 99)));
    expect(r).toEqual({ ok: true, next: { id: 10, name: 'Tags' } });
    expect((input('Department') as unknown as HTMLSelectElement).value).toBe('Finance');

    // A multi-value field gets one more entry; the read-only system field is skipped: the last one.
    act(() => void (r = p.target()!.fill('urgent', 99)));
    expect(r).toEqual({ ok: true, next: null });
    expect(input('Tags 2').value).toBe('urgent');
    expect(input('Tags 1').value).toBe('a');
    await waitFor(() => expect(currentText()).toBe('Every field has been filled.'));
    expect(p.target()!.current).toBeNull();
    expect(p.target()!.fill('more', 99)).toEqual({ ok: false, key: 'INDEXER_NO_CURRENT_FIELD' });

    // Confirming the uncertain value (leaving its input) judges it again: then it is valid.
    fireEvent.blur(input('Invoice Number'));
    await waitFor(() => expect(input('Invoice Number').getAttribute('aria-invalid')).toBeNull());
    // Focus chooses the current field.
    fireEvent.focus(input('Title'));
    await waitFor(() => expect(p.target()!.current).toEqual({ id: 1, name: 'Title' }));
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
  });

  it('has no field to fill without the edit bit: the fields are read only', async () => {
    const p = renderPanel(1);
    await waitFor(() => expect(screen.getByText('Read only: you may not change the index fields of this document.')).toBeTruthy());
    expect(p.target()?.current ?? null).toBeNull();
    expect(input('Title').readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
