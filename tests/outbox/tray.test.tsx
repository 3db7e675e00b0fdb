// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '../../src/api/http';
import { db } from '../../src/db/db';
import { NotificationsTray } from '../../src/features/notifications/components/notifications-tray';
import { enqueueFieldEdit } from '../../src/sync/kinds/field-data';
import { i18n } from '../../src/i18n/i18n';
import { jsonResponse } from '../api/fake-fetch';
import { findNotificationsPanel } from '../support/app-harness';

const conflict = { Message: 'The document was changed by someone else since you edited it: Status', Key: 'CONFLICT', Current: { Rev: 9, Fields: [{ ID: 19, VAL: 'Paid' }] }, Conflicts: [19] };

beforeEach(async () => {
  await db.outbox.clear();
});
afterEach(() => cleanup());

function renderTray() {
  return render(
    <I18nextProvider i18n={i18n}>
      <NotificationsTray />
    </I18nextProvider>,
  );
}

describe('the notifications tray', () => {
  it('counts entries needing attention, shows their state and reason, and resolves a conflict', async () => {
    // No session token: the tray's drain sends nothing, so the entries keep the states set here.
    configureHttp({ token: () => null, fetchFn: async () => jsonResponse({}) });
    await enqueueFieldEdit({ dbId: 1, archiveId: 1, docId: 7, hash: 'h7', fields: [{ ID: 19, VAL: 'Approved' }], baseStamp: 3, labels: { 19: 'Status' } });
    await enqueueFieldEdit({ dbId: 1, archiveId: 1, docId: 8, hash: 'h8', fields: [{ ID: 2, VAL: '12a' }], baseStamp: 3, labels: { 2: 'Invoice Number' } });
    const [a, b] = await db.outbox.orderBy('seq').toArray();
    await db.outbox.update(a!.seq!, { state: 'conflict', result: conflict, error: conflict.Message });
    await db.outbox.update(b!.seq!, { state: 'failed', error: 'Field Invoice Number: invalid value' });

    renderTray();
    const button = await screen.findByRole('button', { name: 'Notifications (2 need attention)' });
    fireEvent.click(button);
    // The panel is loaded when the tray first opens.
    const panel = await findNotificationsPanel();
    const conflictItem = within(panel).getByRole('listitem', { name: 'Document 7' });
    expect(within(conflictItem).getByText('Conflict')).toBeTruthy();
    expect(conflictItem.textContent).toContain('Yours: Approved');
    expect(conflictItem.textContent).toContain('On the server: Paid');
    const failedItem = within(panel).getByRole('listitem', { name: 'Document 8' });
    expect(within(failedItem).getByRole('alert').textContent).toBe('Field Invoice Number: invalid value');

    // Discard asks first.
    fireEvent.click(within(failedItem).getByRole('button', { name: 'Discard' }));
    fireEvent.click(within(failedItem).getByRole('button', { name: 'Yes, discard' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));

    // Keep mine: queued again on the server's Rev.
    await act(async () => {
      fireEvent.click(within(conflictItem).getByRole('button', { name: 'Keep mine' }));
    });
    await waitFor(async () => expect((await db.outbox.toArray())[0]).toMatchObject({ state: 'queued', headers: { 'If-Match': '"9"' } }));
    expect(await screen.findByRole('button', { name: 'Notifications (1 need attention)' })).toBeTruthy();
  });

  it("words a failed entry's reason: what failed, on which document, why", async () => {
    configureHttp({ token: () => null, fetchFn: async () => jsonResponse({}) });
    await enqueueFieldEdit({ dbId: 1, archiveId: 1, docId: 5, hash: 'h5', fields: [{ ID: 19, VAL: 'Paid' }], baseStamp: 3, title: 'Invoice 1005' });
    await enqueueFieldEdit({ dbId: 1, archiveId: 1, docId: 6, hash: 'h6', fields: [{ ID: 2, VAL: 'x' }], baseStamp: 3 });
    const [a, b] = await db.outbox.orderBy('seq').toArray();
    await db.outbox.update(a!.seq!, { state: 'failed', error: 'PUT /api/UpdateDocument/x Internal Server Error', reason: { code: 'serverError', status: 500, count: 5 } });
    await db.outbox.update(b!.seq!, { state: 'failed', error: 'Field Invoice Number: invalid value', reason: { code: 'refused', status: 400, message: 'Field Invoice Number: invalid value' } });
    renderTray();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications (2 need attention)' }));
    const panel = await findNotificationsPanel();
    const five = within(panel).getByRole('listitem', { name: 'Invoice 1005' });
    expect(within(five).getByRole('alert').textContent).toBe('Your change to Invoice 1005 was not saved. The server failed on it 5 times in a row (error 500).');
    const refused = within(panel).getByRole('listitem', { name: 'Document 6' });
    expect(within(refused).getByRole('alert').textContent).toBe('Your change to Document 6 was not saved. The server refused it: Field Invoice Number: invalid value');
    expect(within(refused).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(within(refused).getByRole('button', { name: 'Discard' })).toBeTruthy();
  });

  it('done entries can be cleared; without attention the button has no count', async () => {
    configureHttp({ token: () => null, fetchFn: async () => jsonResponse({}) });
    await enqueueFieldEdit({ dbId: 1, archiveId: 1, docId: 9, hash: 'h9', fields: [{ ID: 19, VAL: 'X' }], baseStamp: 3 });
    const [e] = await db.outbox.toArray();
    await db.outbox.update(e!.seq!, { state: 'done', result: { Rev: 4, Fields: [] } });
    renderTray();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    await screen.findByText('Saved');
    fireEvent.click(screen.getByRole('button', { name: 'Clear saved' }));
    expect(await screen.findByText('Nothing is waiting to be sent.')).toBeTruthy();
  });
});
