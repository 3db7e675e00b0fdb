/**
 * Index editing of list and table fields in the results grid (issue 4), against the real server:
 * a dynamic list (City, Prop 128, on Country and Region) whose value is cleared when its parent
 * changes; a type-ahead list (Customer) with suggestions and a pick; the server check (POST
 * api/indexes) refusing a value outside the list; a table field (Item, Quantity, Unit Price)
 * edited as aligned rows with the one-row minimum; Quantity clamped to its Min/Max (1..1000).
 * Every test prepares its own document through the API with a mark no other test uses, reads the
 * saved values back through the API, and puts the document back afterwards.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { signIn } from './support';
import { A, S, expect, gridRows, test, type Doc } from './grid-support';
import { apiToken, cell, editCell as editCellText, getSearch, mustPut, promptId, putFields, searchDocs, typeAndLeaveAtOnce, uniqueMark, wire, type FieldValue } from './editing-support';

/** Field ids of the seed (server/seed/catalog.ts F). */
const FX = { title: 1, customer: 6, country: 7, region: 8, city: 9, tags: 10, item: 20, quantity: 21, unitPrice: 22 } as const;
const TABLE = 'Item, Quantity, Unit Price';

interface Prepared {
  token: string;
  /** The document as the server has it now. */
  fetch: () => Promise<Doc>;
  /** Opens its results page (signed in as the user, edit mode on) and returns its grid row. */
  open: (page: Page) => Promise<number>;
  restore: () => Promise<void>;
}

/**
 * Gives document `index` of a search's first page a mark that a prompt of the search finds, and the
 * `values`; remembers what it had.
 */
async function prepare(
  request: APIRequestContext,
  q: { searchId: number; archiveId: number; index: number; prompt: string; markField: number; multi: boolean; values: FieldValue[] },
): Promise<Prepared> {
  const token = await apiToken(request, 'user');
  const search = await getSearch(request, token, 1, q.searchId);
  // A document of the archive itself (the search also shows its sub-archives' documents).
  const original = (await searchDocs(request, token, { searchId: q.searchId, archiveId: q.archiveId, rpp: 100 })).Docs.filter((d) => d.ArchiveId === q.archiveId)[q.index]!;
  // The title shows the mark too: it is the first column, rendered at any width.
  const ids = [...new Set([FX.title, q.markField, ...q.values.map((v) => v.ID)])];
  const before = ids.map((id) => wire(original, id));
  const m = uniqueMark('lists');
  await mustPut(request, token, original, [
    ...(q.markField !== FX.title ? [{ ID: FX.title, VAL: m }] : []),
    q.multi ? { ID: q.markField, VAL: m, MVAL: [m] } : { ID: q.markField, VAL: m },
    ...q.values,
  ]);
  const prompt = promptId(search, q.prompt);
  const criteria = [q.multi ? { ID: prompt, MVAL: [m] } : { ID: prompt, VAL: m }];
  const fetch = async () => {
    const found = (await searchDocs(request, token, { searchId: q.searchId, archiveId: q.archiveId, criteria, rpp: 100 })).Docs;
    expect(found.length).toBe(1);
    return found[0]!;
  };
  return {
    token,
    fetch,
    open: async (page) => {
      await signIn(page, 'user');
      await expect(page).toHaveURL(/\/(select|view)/);
      const params = new URLSearchParams({ Id: String(q.searchId), db: '1', archive: String(q.archiveId), criteria: JSON.stringify(criteria) });
      await page.goto(`/results/${search.Hash}?${params.toString()}`);
      await expect(gridRows(page).filter({ hasText: m })).toHaveCount(1);
      await expect(page.getByTestId('results-count')).toHaveText('1 document');
      await expect(page.locator('.results-grid .ht_clone_top thead th .colHeader').first()).toBeVisible();
      const row = (await gridRows(page).allTextContents()).findIndex((s) => s.includes(m));
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveAttribute('aria-pressed', 'true');
      return row;
    },
    restore: async () => mustPut(request, token, await fetch(), before),
  };
}

/** The grid's one text editor. */
const editor = (page: Page) => page.locator('.results-grid textarea.handsontableInput');

/** Edits a cell (editing-support's editCell) and waits until the grid has the focus again. */
async function editCell(page: Page, row: number, column: string, text: string): Promise<void> {
  await editCellText(page, row, column, text);
  // A closed editor stays in the DOM (transparent); the grid has the focus again.
  await expect(editor(page)).not.toBeFocused();
}

/** Opens a list cell's combobox and returns its listbox (named after the field). */
async function openList(page: Page, row: number, column: string): Promise<Locator> {
  await (await cell(page, row, column)).dblclick();
  const box = page.getByRole('combobox', { name: column });
  await expect(box).toBeVisible();
  return page.getByRole('listbox', { name: column });
}

test.describe('list and table fields in the results grid', () => {
  test('a dynamic list offers the cities of the row\'s country and region; a region change clears a city it no longer holds; the pick is saved', async ({ page, request }) => {
    const p = await prepare(request, {
      searchId: S.correspondence,
      archiveId: A.correspondence,
      index: 3,
      prompt: 'Tag',
      markField: FX.tags,
      multi: true,
      values: [
        { ID: FX.country, VAL: 'USA' },
        { ID: FX.region, VAL: 'East' },
        { ID: FX.city, VAL: 'Boston' },
      ],
    });
    try {
      const row = await p.open(page);
      // The list for USA / East, the current city active.
      let list = await openList(page, row, 'City');
      await expect(list.getByRole('option')).toHaveText(['Boston', 'New York']);
      await expect(list.getByRole('option', { name: 'Boston' })).toHaveAttribute('aria-selected', 'true');
      await editor(page).press('Escape');

      // Region West: Boston is not in the refreshed list and is cleared.
      await editCell(page, row, 'Region', 'West');
      const city = await cell(page, row, 'City');
      await expect(city).toHaveAttribute('data-edit', 'dirty');
      await expect(city).toHaveText('');
      await expect(city).toHaveAttribute('aria-description', 'Cleared: not in the list for the values chosen');

      // The refreshed list, filtered by typing; a click takes an item.
      list = await openList(page, row, 'City');
      await expect(list.getByRole('option')).toHaveText(['Denver', 'Seattle']);
      await editor(page).fill('');
      await editor(page).pressSequentially('sea');
      await expect(list.getByRole('option')).toHaveText(['Seattle']);
      await list.getByRole('option', { name: 'Seattle' }).click();
      await expect(editor(page)).not.toBeFocused();
      await expect(city).toHaveText('Seattle');
      await expect(city).toHaveAttribute('data-edit', 'dirty');

      // A city of another country is refused at once (the list is known): not in the list.
      await editCell(page, row, 'City', 'Paris');
      await expect(city).toHaveAttribute('aria-invalid', 'true');
      await expect(city).toContainText('The value is not an item of the list');
      // Keyboard: ArrowDown to the second item, Enter takes it.
      list = await openList(page, row, 'City');
      await expect(list.getByRole('option')).toHaveCount(2);
      await editor(page).press('ArrowDown');
      await editor(page).press('ArrowDown');
      await editor(page).press('Enter');
      await expect(city).toHaveText('Seattle');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => wire(await p.fetch(), FX.city).VAL, { timeout: 20_000 }).toBe('Seattle');
      const saved = await p.fetch();
      expect([wire(saved, FX.country).VAL, wire(saved, FX.region).VAL]).toEqual(['USA', 'West']);
    } finally {
      await p.restore();
    }
  });

  test('a type-ahead list suggests as you type; a pick is saved; a value outside the list is refused by the server check', async ({ page, request }) => {
    const p = await prepare(request, {
      searchId: S.allInvoices,
      archiveId: A.invoices,
      index: 5,
      prompt: 'Title',
      markField: FX.title,
      multi: false,
      values: [{ ID: FX.customer, VAL: 'Globex' }],
    });
    try {
      const row = await p.open(page);
      const customer = await cell(page, row, 'Customer');

      // Outside the list: locally valid text, refused by POST api/indexes (checked before it becomes a dirty value).
      const check = page.waitForRequest((r) => r.url().includes('/api/indexes') && r.method() === 'POST');
      await editCell(page, row, 'Customer', 'Nobody Trading');
      const sent = (await check).postDataJSON() as { ID: number; VAL: string }[];
      expect(sent).toEqual([{ ID: FX.customer, VAL: 'Nobody Trading' }]);
      await expect(customer).toHaveAttribute('data-edit', 'invalid');
      await expect(customer).toContainText('The value is not an item of the list');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Not all rows could be saved.' })).toBeVisible();
      await page.getByRole('alert').getByRole('button', { name: 'Keep editing' }).click();

      // Suggestions for what is typed: those starting with it first.
      const list = await openList(page, row, 'Customer');
      await editor(page).fill('');
      await editor(page).pressSequentially('indus');
      await expect(list.getByRole('option')).toHaveText(['Stark Industries', 'Rich Industries', 'Zorg Industries']);
      await list.getByRole('option', { name: 'Zorg Industries' }).click();
      await expect(customer).toHaveText('Zorg Industries');
      await expect(customer).toHaveAttribute('data-edit', 'dirty');
      // Typed in another case: the server check answers the list's spelling.
      await editCell(page, row, 'Customer', 'wonka foods');
      await expect(customer).toHaveText('Wonka Foods');
      await expect(customer).toHaveAttribute('data-edit', 'dirty');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => wire(await p.fetch(), FX.customer).VAL, { timeout: 20_000 }).toBe('Wonka Foods');
      // After a reload the grid shows the server's value.
      await page.reload();
      await expect(page.locator('.results-grid .ht_clone_top thead th .colHeader').first()).toBeVisible();
      await expect(await cell(page, row, 'Customer')).toHaveText('Wonka Foods');
    } finally {
      await p.restore();
    }
  });

  test('a table field is edited as aligned rows: add and remove rows, never fewer than one; Quantity is clamped to 1..1000', async ({ page, request }) => {
    const p = await prepare(request, {
      searchId: S.allInvoices,
      archiveId: A.invoices,
      index: 6,
      prompt: 'Title',
      markField: FX.title,
      multi: false,
      values: [
        { ID: FX.item, VAL: 'Paper', MVAL: ['Paper', 'Toner'] },
        { ID: FX.quantity, VAL: '2', MVAL: ['2', '3'] },
        { ID: FX.unitPrice, VAL: '1.50', MVAL: ['1.50', '2.00'] },
      ],
    });
    try {
      const row = await p.open(page);
      await (await cell(page, row, 'Title')).click();
      await page.getByRole('button', { name: `Edit rows of ${TABLE}` }).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${TABLE}` });
      await expect(dialog).toBeVisible();
      const input = (field: string, r: number) => dialog.getByRole('textbox', { name: `${field}, row ${r}`, exact: true });
      await expect(input('Item', 2)).toHaveValue('Toner');

      // A new row is added to every column.
      await dialog.getByRole('button', { name: 'Add row' }).click();
      await input('Item', 3).fill('Freight');
      await input('Quantity', 3).fill('5000');
      await input('Unit Price', 3).fill('7.25');
      // Removing row 1 removes it from every column.
      await dialog.getByRole('button', { name: 'Remove row 1', exact: true }).click();
      await expect(input('Item', 1)).toHaveValue('Toner');
      await expect(input('Quantity', 1)).toHaveValue('3');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await expect(dialog).toBeHidden();

      await expect(await cell(page, row, 'Item')).toHaveText('Toner; Freight');
      const qty = await cell(page, row, 'Quantity');
      await expect(qty).toHaveText('3; 1000');
      await expect(qty).toHaveAttribute('aria-description', 'Set to the nearest allowed value');

      // The last row cannot be removed.
      await page.getByRole('button', { name: `Edit rows of ${TABLE}` }).click();
      await dialog.getByRole('button', { name: 'Remove row 2', exact: true }).click();
      await dialog.getByRole('button', { name: 'Remove row 1', exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Can not have less than 1 Row.');
      await expect(input('Item', 1)).toHaveValue('Toner');
      await dialog.getByRole('button', { name: 'Close without changes' }).click();
      await expect(await cell(page, row, 'Item')).toHaveText('Toner; Freight');

      // Typed in a cell: a number below Min is clamped; fewer entries than rows leave the row, empty.
      await editCell(page, row, 'Quantity', '0');
      await expect(qty).toHaveText('1');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => wire(await p.fetch(), FX.item).MVAL, { timeout: 20_000 }).toEqual(['Toner', 'Freight']);
      const saved = await p.fetch();
      expect(wire(saved, FX.quantity).MVAL).toEqual(['1', '']);
      expect(wire(saved, FX.unitPrice).MVAL).toEqual(['2.00', '7.25']);
      await page.reload();
      await expect(page.locator('.results-grid .ht_clone_top thead th .colHeader').first()).toBeVisible();
      await expect(await cell(page, row, 'Item')).toHaveText('Toner; Freight');
    } finally {
      await p.restore();
    }
  });

  test('the server refuses a Quantity outside 1..1000 and a Customer outside its list on save too (API)', async ({ request }) => {
    const token = await apiToken(request, 'user');
    const d = (await searchDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, rpp: 100 })).Docs[7]!;
    for (const body of [[{ ID: FX.quantity, VAL: '0', MVAL: ['0'] }], [{ ID: FX.customer, VAL: 'Nobody Trading' }]]) {
      const res = await putFields(request, token, d, body);
      expect(res.status(), JSON.stringify(body)).toBe(400);
    }
    const check = await request.post('/api/indexes', { params: { token, dbId: 1, archiveId: A.invoices }, data: [{ ID: FX.quantity, VAL: '1001', MVAL: ['1001'] }, { ID: 999, VAL: 'x' }] });
    expect(((await check.json()) as { Code: number; Key?: string }[]).map((r) => [r.Code, r.Key])).toEqual([
      [-1, 'FIELD_OUT_OF_RANGE'],
      [-4, 'FIELD_NOT_FOUND'],
    ]);
  });
});

test.describe('list and table fields in the side panel @touch', () => {
  test('dynamic list, type-ahead suggestions and table rows by touch, with 44 px targets', async ({ page, request }) => {
    const p = await prepare(request, {
      searchId: S.correspondence,
      archiveId: A.correspondence,
      index: 4,
      prompt: 'Tag',
      markField: FX.tags,
      multi: true,
      values: [
        { ID: FX.country, VAL: 'France' },
        { ID: FX.region, VAL: 'North' },
        { ID: FX.city, VAL: 'Paris' },
        { ID: FX.customer, VAL: 'Globex' },
      ],
    });
    try {
      const row = await p.open(page);
      await (await cell(page, row, 'Region')).tap();
      const panel = page.getByRole('complementary', { name: /^Edit / });
      await expect(panel).toBeVisible();

      const city = panel.getByRole('combobox', { name: 'City' });
      await expect(city.locator('option')).toHaveText(['', 'Lille', 'Paris']);
      // Region South: Paris is cleared, the list is Marseille and Nice.
      await panel.getByRole('textbox', { name: 'Region' }).fill('South');
      await panel.getByRole('textbox', { name: 'Region' }).blur();
      await expect(city).toHaveValue('');
      await expect(city.locator('option')).toHaveText(['', 'Marseille', 'Nice']);
      await city.selectOption('Nice');

      // Type-ahead: suggestions under the input, tapped.
      const customer = panel.getByRole('combobox', { name: 'Customer' });
      await customer.tap();
      await customer.fill('hoo');
      const suggestions = panel.getByRole('listbox', { name: 'Suggestions for Customer' });
      await expect(suggestions.getByRole('option')).toHaveText(['Hooli']);
      const box = await suggestions.getByRole('option', { name: 'Hooli' }).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      await suggestions.getByRole('option', { name: 'Hooli' }).tap();
      await expect(customer).toHaveValue('Hooli');

      await page.getByRole('button', { name: 'Save', exact: true }).tap();
      await expect.poll(async () => wire(await p.fetch(), FX.city).VAL, { timeout: 20_000 }).toBe('Nice');
      const saved = await p.fetch();
      expect([wire(saved, FX.region).VAL, wire(saved, FX.customer).VAL]).toEqual(['South', 'Hooli']);
    } finally {
      await p.restore();
    }
  });

  test('table rows in the panel: add and remove by touch, never fewer than one @touch', async ({ page, request }) => {
    const p = await prepare(request, {
      searchId: S.allInvoices,
      archiveId: A.invoices,
      index: 8,
      prompt: 'Title',
      markField: FX.title,
      multi: false,
      values: [
        { ID: FX.item, VAL: 'Paper', MVAL: ['Paper'] },
        { ID: FX.quantity, VAL: '2', MVAL: ['2'] },
        { ID: FX.unitPrice, VAL: '1.50', MVAL: ['1.50'] },
      ],
    });
    try {
      const row = await p.open(page);
      await (await cell(page, row, 'Title')).tap();
      const panel = page.getByRole('complementary', { name: /^Edit / });
      const table = panel.getByRole('group', { name: TABLE });
      await expect(table).toBeVisible();
      const remove = table.getByRole('button', { name: 'Remove row 1', exact: true });
      const box = await remove.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      await remove.tap();
      await expect(table.getByRole('alert')).toHaveText('Can not have less than 1 Row.');
      await table.getByRole('button', { name: 'Add row' }).tap();
      for (const [name, value] of [['Item, row 2', 'Toner'], ['Quantity, row 2', '4']] as const) {
        const input = table.getByRole('textbox', { name, exact: true });
        await input.tap();
        await input.fill(value);
      }
      // The last cell left at once for Title, before the keystroke is drawn (a loaded tablet): still saved.
      await typeAndLeaveAtOnce(table.getByRole('textbox', { name: 'Unit Price, row 2', exact: true }), '3.5', panel.getByRole('textbox', { name: 'Title' }));
      await page.getByRole('button', { name: 'Save', exact: true }).tap();
      await expect.poll(async () => wire(await p.fetch(), FX.item).MVAL, { timeout: 20_000 }).toEqual(['Paper', 'Toner']);
      const saved = await p.fetch();
      expect(wire(saved, FX.quantity).MVAL).toEqual(['2', '4']);
      expect(wire(saved, FX.unitPrice).MVAL).toEqual(['1.50', '3.5']);
    } finally {
      await p.restore();
    }
  });
});
