/**
 * Index editing in the browser's locale (issue 4; the user-app spec §5, the archive-ops spec §4-5), against
 * the real server: every field type typed valid and invalid in de-DE, fr-FR and en-GB. An invalid
 * value shows its translated message and is never sent; valid ones arrive in wire form (ISO dates,
 * '.' decimals) as one update in the history, and the grid shows them through the field's mask in
 * the locale. Also a multi-value field, an offline edit in German, and who may not edit (a user
 * without permission 1024, the read-only licence) in the UI and through the API. Dynamic lists and
 * table fields: editing-lists.spec.ts.
 *
 * Each test edits its own document, marked through the API with a title or tag no other test uses,
 * and puts the values back afterwards.
 */
import type { Page } from '@playwright/test';
import { A, F, S, expect, gridRow, test, val, waitForCachedPage, type Doc } from './grid-support';
import {
  apiToken, cell, chooseInCell, editCell, getSearch, mustPut, openResults, plainSpaces, prepareInvoice, promptId, putFields, rowOf, searchDocs,
  signInAs, snapshot, texts, uniqueMark, updatedCount, wire, type Lang, type Translate,
} from './editing-support';
import { waitForServiceWorker, withServiceWorker } from './support';

/** Field ids of the demo catalogue (server/seed/catalog.ts F) beyond those grid-support names. */
const FX = { accountCode: 17, tags: 10, dateEntered: 11 } as const;

interface LocaleCase {
  locale: string;
  lang: Lang;
  /** Which of the invoices with the highest numbers this locale edits (no other test edits those). */
  slot: number;
  title: string;
  /** shown: the typed date in the grid, the Document Date mask's parts (MM/dd/yyyy) in the locale's order. */
  date: { typed: string; iso: string; invalid: string; shown: string };
  amount: { typed: string; wire: string; shown: string; invalid: string };
  /** Literal messages (not read from the language file: a missing translation must fail). */
  messages: { date: string; number: string; required: string; tooLong: string };
}

const CASES: LocaleCase[] = [
  {
    locale: 'de-DE',
    lang: 'de',
    slot: 0,
    title: 'Größenprüfung',
    // US order (month first) is impossible in German: month 24.
    date: { typed: '24.12.2026', iso: '2026-12-24', invalid: '12/24/2026', shown: '24.12.2026' },
    // The archive's currency (US dollars) in every language; the locale only writes the number.
    amount: { typed: '1234,56', wire: '1234.56', shown: '1.234,56 $', invalid: '1,234,56' },
    messages: { date: 'Ungültiges Datum', number: 'Ungültige Ganzzahl oder Dezimalzahl', required: 'Dieses Feld ist ein Pflichtfeld', tooLong: 'Der Wert ist länger als das Feld erlaubt' },
  },
  {
    locale: 'fr-FR',
    lang: 'fr',
    slot: 1,
    title: 'Été à Noël',
    // A two-digit year is expanded.
    date: { typed: '24/12/26', iso: '2026-12-24', invalid: '12/24/2026', shown: '24/12/2026' },
    amount: { typed: '1234,56', wire: '1234.56', shown: '1 234,56 $', invalid: '12,34,5' },
    messages: { date: 'Date non valide', number: 'Valeur entière ou décimale non valide', required: 'Ce champ est obligatoire', tooLong: 'La valeur dépasse la longueur autorisée du champ' },
  },
  {
    locale: 'en-GB',
    lang: 'en',
    slot: 2,
    title: 'Colour check',
    date: { typed: '24/12/2026', iso: '2026-12-24', invalid: '12/24/2026', shown: '24/12/2026' },
    // A comma is not the decimal separator in British English.
    amount: { typed: '1234.56', wire: '1234.56', shown: '$1,234.56', invalid: '1234,56' },
    messages: { date: 'Invalid date', number: 'Invalid integer or decimal value', required: 'This field is required', tooLong: 'The value is longer than the field allows' },
  },
];

const editToggle = (page: Page, t: Translate) => page.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true });

/** The document history panel of the active row, filtered to 'updated' entries. */
async function historyUpdates(page: Page, t: Translate) {
  await page.getByRole('button', { name: t('RESULTS_HISTORY'), exact: true }).click();
  const sidebar = page.getByRole('complementary', { name: t('HISTORY_SIDEBAR') });
  await expect(sidebar).toBeVisible();
  await sidebar.getByLabel(t('HISTORY_FILTER'), { exact: true }).selectOption('updated');
  return sidebar.getByRole('list', { name: t('HISTORY_DOCUMENT') }).getByRole('listitem');
}

for (const c of CASES) {
  test.describe(`index editing in ${c.locale}`, () => {
    test.use({ locale: c.locale });

    test(`${c.locale}: every field type, invalid values refused with the translated message, valid ones saved in wire form and shown in the locale`, async ({ page, request }) => {
      test.setTimeout(120_000);
      const t = texts(c.lang);
      const token = await apiToken(request, 'user');
      const inv = await prepareInvoice(request, token, c.slot, `loc-${c.lang}`);
      try {
        const before = await updatedCount(request, token, inv.doc);
        await signInAs(page, 'user', t);
        await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
        await expect(gridRow(page, 0)).toContainText(inv.mark);
        await expect(editToggle(page, t)).toHaveAttribute('aria-pressed', 'false');
        await editToggle(page, t).click();
        await expect(editToggle(page, t)).toHaveAttribute('aria-pressed', 'true');

        // The editors open with the locale's forms of the stored values.
        const storedDate = val(inv.doc, F.documentDate);
        const [y, m, d] = storedDate.split('-');
        const localDate = c.lang === 'de' ? `${d}.${m}.${y}` : `${d}/${m}/${y}`;
        expect(await editCell(page, 0, 'Document Date', c.date.invalid)).toBe(localDate);

        // Letters in a number field stay in the cell, flagged like any invalid value (they used to be
        // dropped, committing an empty Invoice Number).
        expect(await editCell(page, 0, 'Invoice Number', 'abc')).toBe(val(inv.doc, F.invoiceNumber));
        const number = await cell(page, 0, 'Invoice Number');
        await expect(number).toHaveAttribute('aria-invalid', 'true');
        await expect(number).toContainText('abc');
        await expect(number).toContainText(c.messages.number);

        // Invalid values, one per rule: each cell shows its message in the app's language.
        const invalid: [string, string, string][] = [
          ['Title', '', c.messages.required],
          ['Invoice Number', '12345678901234567890', c.messages.number],
          ['Amount', c.amount.invalid, c.messages.number],
          ['Status', 'x'.repeat(21), c.messages.tooLong],
          // A RegEx's own message (its comment prefix) is the catalogue's text, not translated.
          ['Account Code', 'XY-12', 'Account code must look like AB-1234'],
        ];
        for (const [column, text] of invalid) await editCell(page, 0, column, text);
        for (const [column, , message] of [['Document Date', c.date.invalid, c.messages.date] satisfies [string, string, string], ...invalid]) {
          const td = await cell(page, 0, column);
          await expect(td, column).toHaveAttribute('aria-invalid', 'true');
          await expect(td, column).toContainText(message);
          await expect(td, column).toHaveAttribute('aria-description', message);
        }
        await expect(page.getByTestId('edit-status')).toContainText(t('EDIT_INVALID_ENTRIES', { count: invalid.length + 1 }));

        // Save refuses them all: the alert in the app's language, nothing sent.
        const sent: string[] = [];
        // On the context: the service worker may be the one that sends.
        page.context().on('request', (r) => {
          if (r.url().includes('/FieldData')) sent.push(r.url());
        });
        await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).click();
        const alert = page.getByRole('alert').filter({ hasText: t('UNABLE_TO_SAVE_ALL_ROWS_MSG') });
        await expect(alert).toBeVisible();
        await alert.getByRole('button', { name: t('EDIT_KEEP_EDITING'), exact: true }).click();
        await expect(alert).toBeHidden();

        // The valid forms of the same fields, and a fixed list item.
        const newTitle = `${inv.mark} ${c.title}`;
        const department = val(inv.doc, F.department) === 'Legal' ? 'Sales' : 'Legal';
        const status = val(inv.doc, F.status) === 'Approved' ? 'Paid' : 'Approved';
        await editCell(page, 0, 'Title', newTitle);
        await editCell(page, 0, 'Invoice Number', '-4711');
        await editCell(page, 0, 'Document Date', c.date.typed);
        await editCell(page, 0, 'Amount', c.amount.typed);
        await editCell(page, 0, 'Status', status);
        await editCell(page, 0, 'Account Code', 'AB-1234');
        await chooseInCell(page, 0, 'Department', department);
        for (const column of ['Title', 'Invoice Number', 'Document Date', 'Amount', 'Status', 'Account Code', 'Department']) {
          const td = await cell(page, 0, column);
          await expect(td, column).not.toHaveAttribute('aria-invalid', 'true');
          await expect(td, column).toHaveAttribute('data-edit', 'dirty');
        }
        // Shown through the masks in the locale: the mask's date parts in the locale's order, the archive's currency.
        await expect(await cell(page, 0, 'Document Date')).toHaveText(c.date.shown);
        expect(plainSpaces(await (await cell(page, 0, 'Amount')).innerText())).toBe(plainSpaces(c.amount.shown));
        await expect(page.getByTestId('edit-status')).toHaveText(t('EDIT_UNSAVED_ROWS', { count: 1 }));
        expect(sent).toEqual([]);

        await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).click();
        await expect.poll(async () => val(await inv.fetch(), F.amount), { timeout: 20_000 }).toBe(c.amount.wire);
        const after = await inv.fetch();
        expect(val(after, F.title)).toBe(newTitle);
        expect(val(after, F.invoiceNumber)).toBe('-4711');
        expect(val(after, F.documentDate)).toBe(c.date.iso);
        expect(val(after, F.department)).toBe(department);
        expect(val(after, FX.accountCode)).toBe('AB-1234');
        expect(val(after, F.status)).toBe(status);
        expect(sent).toHaveLength(1);
        expect(await updatedCount(request, token, after)).toBe(before + 1);

        // The page is reloaded from the server: no marks, the values in the locale.
        await expect(await cell(page, 0, 'Title')).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
        await page.reload();
        await expect(gridRow(page, 0)).toContainText(newTitle);
        expect(plainSpaces(await (await cell(page, 0, 'Amount')).innerText())).toBe(plainSpaces(c.amount.shown));
        await expect(await cell(page, 0, 'Document Date')).toHaveText(c.date.shown);
        await expect(await cell(page, 0, 'Invoice Number')).toHaveText('-4711');
        await expect(await cell(page, 0, 'Department')).toHaveText(department);
        // The editor opens with the saved date in the locale's order (edit mode starts off after a reload).
        await expect(editToggle(page, t)).toHaveAttribute('aria-pressed', 'false');
        await editToggle(page, t).click();
        await (await cell(page, 0, 'Document Date')).dblclick();
        const editor = page.locator('.results-grid textarea.handsontableInput').first();
        await expect(editor).toHaveValue(c.lang === 'de' ? '24.12.2026' : '24/12/2026');
        await editor.press('Escape');

        // The history names the document and shows the one update in the app's language, with the wire values.
        await (await cell(page, 0, 'Title')).click();
        const updates = await historyUpdates(page, t);
        const sidebar = page.getByRole('complementary', { name: t('HISTORY_SIDEBAR') });
        await expect(sidebar.getByRole('heading', { level: 2 })).toHaveText(t('HISTORY_DOCUMENT_HEADING', { id: inv.doc.Id, archive: 'Invoices' }));
        await expect(sidebar.getByTestId('history-doc-label')).toHaveText(newTitle);
        await expect(updates).toHaveCount(before + 1);
        const oldAmount = val(inv.doc, F.amount);
        const amountChanged = oldAmount
          ? t('HISTORY_EVENT_FIELD_CHANGED', { field: 'Amount', old: oldAmount, new: c.amount.wire })
          : t('HISTORY_EVENT_FIELD_SET', { field: 'Amount', new: c.amount.wire });
        await expect(updates.filter({ hasText: amountChanged })).toHaveCount(1);
        await expect(updates.filter({ hasText: c.date.iso })).toHaveCount(1);
        if (c.lang !== 'en') await expect(updates.filter({ hasText: 'changed from' })).toHaveCount(0);
      } finally {
        await inv.restore();
      }
    });
  });
}

test.describe('one document read in English and in German', () => {
  test('the amount keeps its currency ($) in both languages; every date column, the editor and the search prompt follow the language\'s order; letters in a number stay flagged', async ({ browser, request }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request, 'user');
    const inv = await prepareInvoice(request, token, 4, 'money');
    await mustPut(request, token, inv.doc, [
      { ID: F.amount, VAL: '24254.18' },
      { ID: F.documentDate, VAL: '2026-03-04' },
    ]);
    try {
      const entered = val(await inv.fetch(), FX.dateEntered);
      const [ey, em, ed] = entered.split('-');
      const views = [
        { locale: 'en-US', lang: 'en' as const, amount: '$24,254.18', date: '03/04/2026', entered: `${em}/${ed}/${ey}`, format: 'MM/DD/YYYY', number: 'Invalid integer or decimal value' },
        { locale: 'de-DE', lang: 'de' as const, amount: '24.254,18 $', date: '04.03.2026', entered: `${ed}.${em}.${ey}`, format: 'TT.MM.JJJJ', number: 'Ungültige Ganzzahl oder Dezimalzahl' },
      ];
      const symbols: string[] = [];
      for (const v of views) {
        const context = await browser.newContext({ locale: v.locale });
        const page = await context.newPage();
        try {
          const t = texts(v.lang);
          await signInAs(page, 'user', t);
          await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
          await expect(gridRow(page, 0)).toContainText(inv.mark);
          const amount = plainSpaces(await (await cell(page, 0, 'Amount')).innerText());
          expect(amount, v.locale).toBe(v.amount);
          symbols.push(amount.replace(/[\d\s.,]/g, ''));
          // Document Date (mask MM/dd/yyyy) and Date Entered (mask d) in one order.
          await expect(await cell(page, 0, 'Document Date')).toHaveText(v.date);
          await expect(await cell(page, 0, 'Date Entered')).toHaveText(v.entered);

          await editToggle(page, t).click();
          expect(await editCell(page, 0, 'Document Date', v.date)).toBe(v.date);
          expect(await editCell(page, 0, 'Invoice Number', 'abc')).toBe(val(inv.doc, F.invoiceNumber));
          const number = await cell(page, 0, 'Invoice Number');
          await expect(number).toHaveAttribute('aria-invalid', 'true');
          await expect(number).toContainText('abc');
          await expect(number).toHaveAttribute('aria-description', v.number);
          // Nothing of this is kept: the edits (one of them invalid) are discarded.
          await page.getByRole('button', { name: t('EDIT_CANCEL'), exact: true }).click();
          await page.getByRole('button', { name: t('EDIT_DISCARD_CHANGES'), exact: true }).click();
          await expect(number).not.toHaveAttribute('aria-invalid', 'true');

          // The search prompt asks for the same order.
          await page.goto('/view?db=1');
          await page.getByTestId('search-list').getByRole('button', { name: 'All Invoices', exact: true }).click();
          const from = page.getByLabel(t('SEARCH_RANGE_FROM', { prompt: 'Document Date' }), { exact: true });
          await expect(from).toHaveAttribute('placeholder', v.format);
          await from.fill(v.date);
          await from.blur();
          await expect(from).toHaveValue(v.date);
        } finally {
          await context.close();
        }
      }
      expect(symbols).toEqual(['$', '$']);
      expect(val(await inv.fetch(), F.invoiceNumber)).toBe(val(inv.doc, F.invoiceNumber));
    } finally {
      await inv.restore();
    }
  });
});

test.describe('a multi-value field and an offline edit in de-DE', () => {
  test.use({ locale: 'de-DE' });

  test('tags typed as several entries: one too long is refused with the German message; the entries are saved in order, trimmed', async ({ page, request }) => {
    const t = texts('de');
    const token = await apiToken(request, 'user');
    const search = await getSearch(request, token, 1, S.correspondence);
    // Near the end of the first page: the other editing specs edit the first documents.
    const own = (await searchDocs(request, token, { searchId: S.correspondence, archiveId: A.correspondence, rpp: 100 })).Docs.filter((d) => d.ArchiveId === A.correspondence);
    const original = own[own.length - 3]!;
    const restore = snapshot(original, [FX.tags, F.title]);
    const mark = uniqueMark('tag');
    // A tag only this document has, so that a search finds it (and the title shows it in the grid).
    await mustPut(request, token, original, [
      { ID: FX.tags, VAL: mark, MVAL: [mark] },
      { ID: F.title, VAL: mark },
    ]);
    const criteria = [{ ID: promptId(search, 'Tag'), MVAL: [mark] }];
    const fetch = async () => (await searchDocs(request, token, { searchId: S.correspondence, archiveId: A.correspondence, criteria })).Docs[0]!;
    try {
      const doc = await fetch();
      const before = await updatedCount(request, token, doc);
      await signInAs(page, 'user', t);
      await openResults(page, { searchId: S.correspondence, hash: search.Hash, archiveId: A.correspondence, criteria });
      const row = await rowOf(page, mark);
      await editToggle(page, t).click();

      await editCell(page, row, 'Tags', `${mark}; ${'z'.repeat(31)}`);
      const tags = await cell(page, row, 'Tags');
      await expect(tags).toHaveAttribute('aria-invalid', 'true');
      await expect(tags).toContainText('Der Wert ist länger als das Feld erlaubt');
      await editCell(page, row, 'Tags', `${mark}; dringend;  geprüft ;`);
      await expect(tags).toHaveText(`${mark}; dringend; geprüft`);
      await expect(tags).toHaveAttribute('data-edit', 'dirty');
      await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).click();
      await expect.poll(async () => wire(await fetch(), FX.tags).MVAL, { timeout: 20_000 }).toEqual([mark, 'dringend', 'geprüft']);
      expect(await updatedCount(request, token, doc)).toBe(before + 1);
      await expect(tags).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
      await expect(tags).toHaveText(`${mark}; dringend; geprüft`);
    } finally {
      await mustPut(request, token, original, restore);
    }
  });

  test.describe('with the service worker', () => {
    test.use(withServiceWorker);

    test('offline in German: a date and an amount edited and saved, shown pending after a reload, sent once when back online', async ({ page, context, request }) => {
      test.setTimeout(120_000);
      const t = texts('de');
      const token = await apiToken(request, 'user');
      const inv = await prepareInvoice(request, token, 3, 'offline-de');
      try {
        const before = await updatedCount(request, token, inv.doc);
        await signInAs(page, 'user', t);
        await openResults(page, { searchId: S.allInvoices, hash: inv.hash, archiveId: A.invoices, criteria: inv.criteria });
        await expect(gridRow(page, 0)).toContainText(inv.mark);
        await waitForCachedPage(page, { gridKey: `search|${S.allInvoices}|${A.invoices}`, page: 1 });
        await waitForServiceWorker(page);

        await context.setOffline(true);
        try {
          await editToggle(page, t).click();
          await editCell(page, 0, 'Document Date', '1.3.27');
          await editCell(page, 0, 'Amount', '99,5');
          await page.getByRole('button', { name: t('EDIT_SAVE'), exact: true }).click();
          await expect(await cell(page, 0, 'Amount')).toHaveAttribute('data-edit', 'pending');

          await page.reload();
          // What the user sees: the saved page, marked as offline data.
          await expect(page.getByRole('status').filter({ hasText: t('RESULTS_OFFLINE_DATA_FROM', { time: '' }).trim() })).toBeVisible();
          await expect(gridRow(page, 0)).toContainText(inv.mark);
          const amount = await cell(page, 0, 'Amount');
          await expect(amount).toHaveAttribute('data-edit', 'pending');
          await expect(amount).toHaveAttribute('aria-description', t('EDIT_PENDING'));
          expect(plainSpaces(await amount.innerText())).toContain('99,50 $');
          await expect(await cell(page, 0, 'Document Date')).toContainText('01.03.2027');
        } finally {
          await context.setOffline(false);
        }
        // Back online the outbox sends at once ('online'): wait for what the user sees, the pending
        // mark going, then look at the server once (not a poll of the API beside the page).
        const amount = await cell(page, 0, 'Amount');
        await expect(amount).not.toHaveAttribute('data-edit', /./, { timeout: 30_000 });
        expect(plainSpaces(await amount.innerText())).toBe('99,50 $');
        const saved = await inv.fetch();
        expect(val(saved, F.amount)).toBe('99.5');
        expect(val(saved, F.documentDate)).toBe('2027-03-01');
        expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
        await page.reload();
        await expect(gridRow(page, 0)).toContainText(inv.mark);
        expect(await updatedCount(request, token, inv.doc)).toBe(before + 1);
      } finally {
        await inv.restore();
      }
    });
  });
});

test.describe('who may not edit', () => {
  test('a user without permission 1024 (Records: read only) sees no Edit toggle, and the API refuses the edit', async ({ page, request }) => {
    const t = texts('en');
    const token = await apiToken(request, 'user');
    const records = await getSearch(request, token, 2, 8);
    const docs = await searchDocs(request, token, { db: 2, searchId: 8, archiveId: 9, rpp: 5 });
    const doc = docs.Docs[0]!;
    expect((doc as Doc & { Permissions: number }).Permissions & 1024).toBe(0);

    await signInAs(page, 'user', t);
    await openResults(page, { db: 2, searchId: 8, hash: records.Hash, archiveId: 9, criteria: [] });
    await expect(page.getByRole('button', { name: t('RESULTS_HISTORY'), exact: true })).toBeVisible();
    await expect(editToggle(page, t)).toHaveCount(0);

    const res = await request.put(`/api/UpdateDocument/databases/2/archive/${doc.ArchiveId}/document/${doc.Id}/FieldData`, {
      params: { token, secureId: doc.Hash },
      data: [{ ID: 30, VAL: 'Not allowed' }],
    });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { Message: string }).Message).toMatch(/permission/i);
    const again = (await searchDocs(request, token, { db: 2, searchId: 8, archiveId: 9, rpp: 5 })).Docs.find((d) => d.Id === doc.Id)!;
    expect(val(again, 30)).toBe(val(doc, 30));
  });

  test('an archive the user cannot see (HR Files) and the read-only licence: well-formed edits are refused, nothing changes', async ({ request }) => {
    const admin = await apiToken(request, 'admin');
    const hr = (await searchDocs(request, admin, { searchId: S.hr, archiveId: A.hrFiles, rpp: 1 })).Docs[0]!;
    const user = await apiToken(request, 'user');
    const hidden = await putFields(request, user, hr, [{ ID: F.title, VAL: 'Not allowed' }]);
    expect(hidden.status()).toBe(403);

    // The viewer may read invoices, but its licence is read-only (type 4).
    const viewer = await apiToken(request, 'viewer');
    const inv = (await searchDocs(request, viewer, { searchId: S.allInvoices, archiveId: A.invoices, sort: `${F.invoiceNumber}:desc`, rpp: 20 })).Docs[5]!;
    const refused = await putFields(request, viewer, inv, [{ ID: F.title, VAL: 'Not allowed' }]);
    expect(refused.status()).toBe(403);

    const hrAfter = (await searchDocs(request, admin, { searchId: S.hr, archiveId: A.hrFiles, rpp: 1 })).Docs[0]!;
    expect(val(hrAfter, F.title)).toBe(val(hr, F.title));
    const invAfter = (await searchDocs(request, viewer, { searchId: S.allInvoices, archiveId: A.invoices, sort: `${F.invoiceNumber}:desc`, rpp: 20 })).Docs[5]!;
    expect(invAfter.Id).toBe(inv.Id);
    expect(val(invAfter, F.title)).toBe(val(inv, F.title));
  });
});
