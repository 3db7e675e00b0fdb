// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { filterDatabaseName } from '../../src/api/admin-databases';
import { randomHexColor, viewLabelProblem } from '../../src/api/admin-archives';
import { pickDb } from '../../src/features/admin-console/shell/selected-db';
import { deleteConfirmationText, deleteConfirmed } from '../../src/features/admin-console/ui/delete-confirm';
import { DeleteConfirmDialog } from '../../src/features/admin-console/ui/delete-confirm-dialog';
import { EditCopyModal } from '../../src/features/admin-console/ui/edit-copy-modal';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

describe('database name filter (the console spec §5)', () => {
  it('keeps letters, digits and ` ! ^ ( ) + = { } [ ; $ , . _ - and strips everything else', () => {
    expect(filterDatabaseName('Sales 2026')).toBe('Sales2026');
    expect(filterDatabaseName('a`!^()+={}[;$,._-z')).toBe('a`!^()+={}[;$,._-z');
    expect(filterDatabaseName('x]<>/\\|"\'?*&%#@~:é')).toBe('xé');
    expect(filterDatabaseName('  <> ')).toBe('');
  });
});

describe('view values', () => {
  it('need a label, unique in the archive regardless of case and spaces', () => {
    const values = [{ label: 'Open' }, { label: ' open ' }, { label: '' }, { label: 'Closed' }];
    expect(viewLabelProblem(values, 0)).toBe('VIEW_LABEL_NOT_UNIQUE');
    expect(viewLabelProblem(values, 2)).toBe('VIEW_LABEL_REQUIRED');
    expect(viewLabelProblem(values, 3)).toBeNull();
  });
  it('get a random hexadecimal colour', () => {
    expect(randomHexColor(() => 0)).toBe('#000000');
    expect(randomHexColor(() => 0.999999999)).toBe('#ffffff');
    expect(randomHexColor()).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('the selected database', () => {
  it('is the address one, else the remembered one, else the only one, else none', () => {
    expect(pickDb([1, 2], 2, 1)).toBe(2);
    expect(pickDb([1, 2], 9, 1)).toBe(1);
    expect(pickDb([1, 2], null, 7)).toBeNull();
    // None remembered (or one gone): the database the user works in in the app.
    expect(pickDb([1, 2], null, 7, 2)).toBe(2);
    expect(pickDb([1, 2], null, 1, 2)).toBe(1);
    expect(pickDb([1, 2], null, null, 9)).toBeNull();
    expect(pickDb([5], null, null)).toBe(5);
    expect(pickDb([], null, 5)).toBeNull();
  });
});

describe('delete confirmation', () => {
  it("asks for 'DELETE {NAME}' in upper case, or for searches the name", () => {
    expect(deleteConfirmationText('Invoices 2026')).toBe('DELETE INVOICES 2026');
    expect(deleteConfirmed('DELETE INVOICES 2026', 'Invoices 2026')).toBe(true);
    expect(deleteConfirmed('delete invoices 2026', 'Invoices 2026')).toBe(false);
    expect(deleteConfirmed('Invoices 2026', 'Invoices 2026', false)).toBe(true);
    expect(deleteConfirmed('DELETE Invoices 2026', 'Invoices 2026', false)).toBe(false);
  });

  it('enables Delete only once the text is typed exactly', () => {
    const confirmed: string[] = [];
    render(
      <I18nextProvider i18n={i18n}>
        <DeleteConfirmDialog open name="Receipts" onCancel={() => undefined} onConfirm={() => confirmed.push('yes')} />
      </I18nextProvider>,
    );
    const del = screen.getByRole('button', { name: 'Delete', hidden: true }) as HTMLButtonElement;
    const input = screen.getByLabelText('Confirmation text') as HTMLInputElement;
    expect(screen.getByText(/type DELETE RECEIPTS$/)).toBeTruthy();
    expect(del.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'DELETE Receipts' } });
    expect(del.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'DELETE RECEIPTS' } });
    expect(del.disabled).toBe(false);
    fireEvent.click(del);
    expect(confirmed).toEqual(['yes']);
  });
});

describe('a modal editing a copy', () => {
  type Item = { name: string; tags: string[] };
  const show = (value: Item, onSave: (v: Item) => void, onCancel: () => void, open = true) =>
    render(
      <I18nextProvider i18n={i18n}>
        <EditCopyModal<Item> open={open} title="Edit item" value={value} onSave={onSave} onCancel={onCancel} problem={(c) => (c.tags.length ? null : 'No tags')}>
          {(copy, set) => (
            <>
              <input aria-label="Name" value={copy.name} onChange={(e) => set({ ...copy, name: e.target.value })} />
              <button type="button" onClick={() => set({ ...copy, tags: [...copy.tags, 'new'] })}>
                Tag
              </button>
              <button type="button" onClick={() => set({ ...copy, tags: [] })}>
                Untag
              </button>
            </>
          )}
        </EditCopyModal>
      </I18nextProvider>,
    );

  it('leaves the original as it was on Cancel, nested lists included', () => {
    const original: Item = { name: 'A', tags: ['x'] };
    let cancelled = 0;
    show(original, () => undefined, () => cancelled++);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'B' } });
    fireEvent.click(screen.getByText('Tag'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel', hidden: true }));
    expect(cancelled).toBe(1);
    expect(original).toEqual({ name: 'A', tags: ['x'] });
  });

  it('hands over the edited copy on Save, and refuses while there is a problem', async () => {
    const original: Item = { name: 'A', tags: ['x'] };
    const saved: Item[] = [];
    show(original, (v) => void saved.push(v), () => undefined);
    fireEvent.click(screen.getByText('Untag'));
    const save = screen.getByRole('button', { name: 'Save', hidden: true }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(screen.getByText('No tags')).toBeTruthy();
    fireEvent.click(screen.getByText('Tag'));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'B' } });
    fireEvent.click(save);
    await waitFor(() => expect(saved).toEqual([{ name: 'B', tags: ['new'] }]));
    expect(original).toEqual({ name: 'A', tags: ['x'] });
  });

  it('starts from a new copy each time it opens', () => {
    const original: Item = { name: 'A', tags: ['x'] };
    const r = show(original, () => undefined, () => undefined);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Changed' } });
    r.rerender(
      <I18nextProvider i18n={i18n}>
        <EditCopyModal<Item> open={false} title="Edit item" value={original} onSave={() => undefined} onCancel={() => undefined}>
          {(copy) => <input aria-label="Name" value={copy.name} readOnly />}
        </EditCopyModal>
      </I18nextProvider>,
    );
    r.rerender(
      <I18nextProvider i18n={i18n}>
        <EditCopyModal<Item> open title="Edit item" value={original} onSave={() => undefined} onCancel={() => undefined}>
          {(copy) => <input aria-label="Name" value={copy.name} readOnly />}
        </EditCopyModal>
      </I18nextProvider>,
    );
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('A');
  });
});
