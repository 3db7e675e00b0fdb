// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/db/db';
import { OutboxEntryItem } from '../../src/features/notifications/components/outbox-entry-item';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

const path = '/api/UpdateDocument/databases/1/archive/1/document/8/FieldData';
const base: OutboxEntry = {
  seq: 1,
  id: 'k1',
  kind: 'fieldData',
  method: 'PUT',
  path,
  query: { secureId: 'h8' },
  body: [{ ID: 2, VAL: '12a' }],
  meta: { dbId: 1, archiveId: 1, docId: 8, hash: 'h8', baseStamp: 3, labels: { 2: 'Invoice Number' }, title: 'Invoice 8' },
  target: 'doc|1|1|8',
  state: 'failed',
  attempts: 1,
  createdAt: 0,
  updatedAt: 0,
};

function renderItem(entry: OutboxEntry) {
  render(
    <I18nextProvider i18n={i18n}>
      <ul>
        <OutboxEntryItem entry={entry} />
      </ul>
    </I18nextProvider>,
  );
  return screen.getByRole('listitem', { name: 'Invoice 8' });
}

describe('an outbox entry card', () => {
  it('says which document failed and why in words; the request is only in the technical details', () => {
    const item = renderItem({ ...base, error: `PUT ${path}?secureId=h8 Bad Request`, reason: { code: 'refused', status: 400 } });
    const words = within(item).getByRole('alert').textContent ?? '';
    expect(words).toBe('Your change to Invoice 8 was not saved. The server refused it (error 400).');
    const details = item.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Technical details');
    expect(details.querySelector('pre')!.textContent).toBe(`PUT ${path}?secureId=h8\nPUT ${path}?secureId=h8 Bad Request`);
  });

  it('a change still waiting after a network error shows no request line outside the details', () => {
    const item = renderItem({ ...base, state: 'queued', attempts: 2, error: `The server could not be reached (PUT ${path}?secureId=h8).` });
    const visible = [...item.childNodes].filter((n) => n.nodeName !== 'DETAILS').map((n) => n.textContent).join(' ');
    expect(visible).not.toContain('/api/');
    expect(visible).toContain('Tried 2 times');
    expect(within(item).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(item.querySelector('details pre')!.textContent).toContain(path);
  });

  it('an entry failed before reasons were stored shows the server\'s words, not a request line', () => {
    expect(within(renderItem({ ...base, error: 'Field Invoice Number: invalid value' })).getByRole('alert').textContent).toBe('Field Invoice Number: invalid value');
    cleanup();
    expect(within(renderItem({ ...base, error: `PUT ${path} Bad Request` })).getByRole('alert').textContent).toBe('Your change to Invoice 8 was not saved.');
  });
});
