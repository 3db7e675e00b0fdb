// @vitest-environment happy-dom
/**
 * The tray says what it keeps in the user's language and as the grid shows values, in German here:
 * a field edit's values through the grid's formatting, an annotation entry made while the app was in
 * English, jobs learnt from the server's list on a new device (by kind, Count and format), and a job's
 * failures from their reason keys and parts (the server's English only for records without them).
 */
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import de from '../../public/languages/de.json';
import { JOB_REASON_KEYS } from '../../src/api/jobs';
import { ArchiveDb, type JobRecord, type OutboxEntry } from '../../src/db/db';
import { JobItem } from '../../src/features/notifications/components/job-item';
import { OutboxEntryItem } from '../../src/features/notifications/components/outbox-entry-item';
import { i18n } from '../../src/i18n/i18n';
import { saveJobAnswer, syncJobList } from '../../src/sync/jobs';
import { enqueueAnnotation } from '../../src/sync/kinds/annotation';
import { enqueueExportRequest } from '../../src/sync/kinds/export-request';
import { job } from '../jobs/job-fixtures';

let database: ArchiveDb;
beforeAll(async () => {
  i18n.addResourceBundle('de', 'translation', de, true, true);
  await i18n.changeLanguage('de');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(async () => {
  database = new ArchiveDb(`tray-words-${crypto.randomUUID()}`);
  await database.open();
});
afterEach(() => cleanup());

const inTray = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}><ul>{node}</ul></I18nextProvider>);
const fieldEdit = (meta: Record<string, unknown>): OutboxEntry => ({
  seq: 1,
  id: 'k1',
  kind: 'fieldData',
  method: 'PUT',
  path: '/api/UpdateDocument/databases/1/archive/1/document/8/FieldData',
  body: [
    { ID: 3, VAL: '2025-05-13' },
    { ID: 4, VAL: '17038.12' },
  ],
  meta: { dbId: 1, archiveId: 1, docId: 8, hash: 'h8', baseStamp: 3, labels: { 3: 'Document Date', 4: 'Amount' }, title: 'Invoice 8', ...meta },
  target: 'doc|1|1|8',
  state: 'queued',
  attempts: 0,
  createdAt: 0,
  updatedAt: 0,
});
const fieldLines = (item: HTMLElement) => [...item.querySelectorAll('.outbox-fields li')].map((li) => li.textContent);

describe('the tray in German', () => {
  it('shows a field edit\'s values as the grid shows them: the date and the decimal in the German form', () => {
    inTray(<OutboxEntryItem entry={fieldEdit({ formats: { 3: { Type: 3, Mask: null, Currency: null }, 4: { Type: 4, Mask: null, Currency: null } } })} />);
    expect(fieldLines(screen.getByRole('listitem', { name: 'Invoice 8' }))).toEqual(['Document Date: 13.05.2025', 'Amount: 17038,12']);
  });

  it('a field edit kept before formats were stored shows its wire values', () => {
    inTray(<OutboxEntryItem entry={fieldEdit({})} />);
    expect(fieldLines(screen.getByRole('listitem', { name: 'Invoice 8' }))).toEqual(['Document Date: 2025-05-13', 'Amount: 17038.12']);
  });

  it('an annotation entry is named in German, also when it was made while the app spoke English', async () => {
    await i18n.changeLanguage('en');
    await enqueueAnnotation({ dbId: 1, archiveId: 1, docId: 12, hash: 'h12' }, { op: 'delete', id: 'a1' }, { page: 2, title: 'Invoice 12' }, database, 'user');
    await i18n.changeLanguage('de');
    const entry = (await database.outbox.toArray())[0]!;
    inTray(<OutboxEntryItem entry={entry} />);
    expect(screen.getByRole('listitem', { name: 'Anmerkung auf Seite 2 von Invoice 12' })).toBeTruthy();
  });

  it('an Excel export waiting in the outbox is named by its format and count', async () => {
    await enqueueExportRequest({ settings: { DatabaseID: 1, ArchiveID: 1, FieldDelimiter: ',', StringDelimiter: '"', Docs: [{ ArchiveID: 1, DocID: 1 }], Format: 'xlsx' }, count: 1, title: 'Excel export of 1 document' }, database, 'user');
    inTray(<OutboxEntryItem entry={(await database.outbox.toArray())[0]!} />);
    expect(screen.getByRole('listitem', { name: 'Excel-Export von 1 Dokument' })).toBeTruthy();
  });

  it('jobs learnt from the server\'s list on a new device are named as on the device that started them', async () => {
    await syncJobList(
      database,
      [
        job(51, { Kind: 'bulk-update', Count: 2, Received: 2, DestinationArchive: null }),
        job(52, { Kind: 'export', Format: 'xlsx', Count: 3, Received: 3, DestinationArchive: null }),
        job(53, { Kind: 'import', Name: 'letters.csv', Count: 7, Received: 7, DestinationArchive: null }),
      ],
      'user',
      5_000,
    );
    const records = await database.jobs.toArray();
    inTray(records.map((r) => <JobItem key={r.id} job={r} />));
    for (const name of ['Massenaktualisierung von 2 Dokumenten', 'Excel-Export von 3 Dokumenten', 'Import von 7 Dokumenten aus letters.csv']) {
      expect(screen.getByRole('listitem', { name })).toBeTruthy();
    }
  });

  it('a job\'s failures are said from their reason keys and parts; a record without parts keeps the server\'s lines', async () => {
    await saveJobAnswer(
      database,
      job(61, {
        Kind: 'bulk-update',
        State: 'done',
        Count: 3,
        Processed: 3,
        Succeeded: 1,
        Failed: 2,
        Failures: [
          { DocID: 12, ArchiveID: 1, Reason: 'The document is checked out by another user', Key: 'ERROR_DOCUMENT_CHECKED_OUT', Message: 'DocID 12: The document is checked out by another user', ReasonWords: { Key: JOB_REASON_KEYS.checkedOut } },
          { DocID: 0, ArchiveID: 1, Line: 4, Reason: 'Invalid date', Message: 'Line 4: Invalid date', ReasonWords: { Key: JOB_REASON_KEYS.fieldRule, Params: { field: 'Document Date', rule: 'FIELD_INVALID_DATE' } } },
        ],
      }),
      5_000,
      { owner: 'user' },
    );
    const withParts = (await database.jobs.get('61'))!;
    const old: JobRecord = { ...withParts, id: '62', failureParts: undefined, failures: ['DocID 12: The document is checked out by another user'] };
    inTray(
      <>
        <JobItem job={withParts} />
        <JobItem job={old} />
      </>,
    );
    const [card, oldCard] = screen.getAllByRole('listitem', { name: 'Massenaktualisierung von 3 Dokumenten' });
    const lines = (c: HTMLElement) => [...within(c).getByRole('list', { name: 'Fehler' }).querySelectorAll('li')].map((li) => li.textContent);
    expect(lines(card!)).toEqual(['Dokument 12: Das Dokument ist von einem anderen Benutzer ausgecheckt', 'Zeile 4: Document Date: Ungültiges Datum']);
    expect(lines(oldCard!)).toEqual(['DocID 12: The document is checked out by another user']);
    expect(within(card!).getByText(/3 von 3 erledigt/)).toBeTruthy();
  });
});
