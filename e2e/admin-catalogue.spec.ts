/**
 * The field catalogue in the console (issue 13 items 4 and 7), against the real server: as admin,
 * lists and fields of every type built in FIELD_CATALOG (a regex with its message, a type change
 * confirmed with CONFIRM_FIELDTYPE_CHANGE, the system-field rule, a dynamic list field on another
 * field with its mapping, cancel restoring the original), the fields attached to the Contracts
 * archive through the console's archive call; then as `user` the new columns in the grid with
 * their rules (length, regex message) and the dynamic list's values, and every catalogue call
 * refused (403). At tablet size (@touch) the tabs and the editor are tapped, 44 px high, and a
 * list is deleted by typing its confirmation. Everything made here is removed afterwards.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { onTop, signIn } from './support';
import { A, S, expect, gridRow, headerTexts, test } from './grid-support';
import { apiToken, cell, editCell, getSearch, texts } from './editing-support';

const t = texts('en');
const DB = 1;
const adminBase = `/api/admin/databases/${DB}`;

async function adminApi(request: APIRequestContext, token: string, method: 'GET' | 'PUT' | 'DELETE', path: string, data?: unknown) {
  const res = await request.fetch(`${adminBase}${path}`, { method, headers: { 'Auth-Token': token }, ...(data === undefined ? {} : { data }) });
  return res;
}

/** Removes what a test made: its fields (dependents first) and lists, named with its mark. */
async function cleanUp(request: APIRequestContext, token: string, mark: string) {
  const fields = (await (await adminApi(request, token, 'GET', '/fields')).json()) as { Id: number; Name: string; List: { Type: string } | null }[];
  const mine = fields.filter((f) => f.Name.includes(mark)).sort((a, b) => (b.List?.Type === 'dynamic' ? 1 : 0) - (a.List?.Type === 'dynamic' ? 1 : 0));
  for (const f of mine) await adminApi(request, token, 'DELETE', `/fields/${f.Id}`);
  const tableFields = (await (await adminApi(request, token, 'GET', '/tablefields')).json()) as { Id: number; Name: string }[];
  for (const x of tableFields.filter((x) => x.Name.includes(mark))) await adminApi(request, token, 'DELETE', `/tablefields/${x.Id}`);
  const lists = (await (await adminApi(request, token, 'GET', '/lists')).json()) as { Id: number; Name: string }[];
  for (const l of lists.filter((x) => x.Name.includes(mark))) await adminApi(request, token, 'DELETE', `/lists/${l.Id}`);
}

const tab = (page: Page, key: string) => page.getByRole('tab', { name: t(key), exact: true });
const dialog = (page: Page) => page.getByRole('dialog');

async function openCatalogue(page: Page) {
  await page.goto(`/admin/full?mode=FIELD_CATALOG&db=${DB}`);
  await expect(tab(page, 'CATALOGUE_TAB_FIELDS')).toHaveAttribute('aria-selected', 'true');
}

async function addList(page: Page, name: string, values: string) {
  await tab(page, 'CATALOGUE_TAB_LISTS').click();
  await page.getByRole('button', { name: t('CATALOGUE_ADD_LIST') }).click();
  const d = dialog(page);
  await d.getByLabel(t('CATALOGUE_NAME'), { exact: true }).fill(name);
  await d.getByLabel(t('CATALOGUE_VALUES'), { exact: true }).fill(values);
  await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
  await expect(d).toBeHidden();
}

/** Opens the new-field editor and fills name and type; the caller sets the rest and saves. */
async function newField(page: Page, name: string, type: 'CHARACTER' | 'NUMBER' | 'DATE' | 'DECIMAL') {
  await tab(page, 'CATALOGUE_TAB_FIELDS').click();
  const add = page.getByRole('button', { name: t('CATALOGUE_ADD_FIELD') });
  // The last save's "Saved." toast (5 s) never covers the button: it once sat over it, and a tap
  // reached the toast instead.
  expect(await onTop(add), 'the add button is not under a toast').toBe(true);
  await add.click();
  const d = dialog(page);
  await expect(d.getByRole('heading', { name: t('CATALOGUE_NEW_FIELD') })).toBeVisible();
  await d.getByLabel(t('CATALOGUE_NAME'), { exact: true }).fill(name);
  await d.getByLabel(t('CATALOGUE_TYPE'), { exact: true }).selectOption(type);
  return d;
}

async function save(page: Page) {
  const d = dialog(page);
  await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
  await expect(d).toBeHidden();
}

test.describe('field catalogue', () => {
  test('admin builds fields of every type, a list and a dynamic list; the user sees them in the grid with their rules; catalogue calls are 403 for the user', async ({ page, request, browser }) => {
    test.setTimeout(180_000);
    const mark = `c${Date.now().toString(36)}`;
    const adminToken = await apiToken(request, 'admin');
    const archiveBefore = (await (await adminApi(request, adminToken, 'GET', `/archives/${A.contracts}`)).json()) as { Name: string; Parent: number | null; Fields: number[] };
    try {
      await signIn(page, 'admin');
      await openCatalogue(page);

      // A list: empty lines are dropped on save.
      await addList(page, `Depots FR ${mark}`, 'Lyon\n\n  \nLille\n');
      const values = page.getByRole('list', { name: t('CATALOGUE_VALUES') });
      await expect(values.getByRole('listitem')).toHaveText(['Lyon', 'Lille']);

      // A character field with a length and a regex with its own message.
      const code = `Code ${mark}`;
      let d = await newField(page, code, 'CHARACTER');
      await expect(d.getByLabel(t('CATALOGUE_LENGTH'), { exact: true })).toHaveValue('50');
      await d.getByLabel(t('CATALOGUE_LENGTH'), { exact: true }).fill('8');
      // A backreference cannot be checked in bounded time: the form says so and Save waits.
      await d.getByLabel(t('CATALOGUE_REGEX'), { exact: true }).fill('^(\\w)\\1$');
      await expect(d.getByLabel(t('CATALOGUE_REGEX'), { exact: true })).toHaveAccessibleDescription(t('CATALOGUE_REGEX_UNSUPPORTED'));
      await expect(d.getByRole('alert')).toHaveText(t('CATALOGUE_REGEX_UNSUPPORTED'));
      await expect(d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true })).toBeDisabled();
      await d.getByLabel(t('CATALOGUE_REGEX'), { exact: true }).fill('^[A-Z]{2}\\d{2}$');
      await d.getByLabel(t('CATALOGUE_REGEX_MESSAGE'), { exact: true }).fill('Code looks like AB12');
      await d.getByLabel(t('CATALOGUE_USE_REGEX'), { exact: true }).check();
      await save(page);
      await expect(page.getByRole('region', { name: code })).toContainText('(?#Code looks like AB12)^[A-Z]{2}\\d{2}$');

      // A system field other than read-only turns multi-value and required off; cancel makes nothing.
      d = await newField(page, `Never ${mark}`, 'NUMBER');
      await d.getByLabel(t('CATALOGUE_REQUIRED'), { exact: true }).check();
      await d.getByLabel(t('CATALOGUE_SYSTEM_FIELD'), { exact: true }).selectOption('pageCount');
      await expect(d.getByLabel(t('CATALOGUE_REQUIRED'), { exact: true })).not.toBeChecked();
      await expect(d.getByLabel(t('CATALOGUE_REQUIRED'), { exact: true })).toBeDisabled();
      await expect(d.getByLabel(t('CATALOGUE_MULTI_VALUE'), { exact: true })).toBeDisabled();
      await d.getByRole('button', { name: t('ADMIN_CANCEL'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByRole('button', { name: new RegExp(`^Never ${mark}`) })).toHaveCount(0);

      // NUMBER, DATE; a NUMBER changed to DECIMAL asks CONFIRM_FIELDTYPE_CHANGE.
      for (const [name, type] of [
        [`Count ${mark}`, 'NUMBER'],
        [`Due ${mark}`, 'DATE'],
        [`Rate ${mark}`, 'NUMBER'],
        [`Country ${mark}`, 'CHARACTER'],
      ] as const) {
        await newField(page, name, type);
        await save(page);
      }
      await page.getByRole('button', { name: new RegExp(`^Rate ${mark}`) }).click();
      await page.getByRole('region', { name: `Rate ${mark}` }).getByRole('button', { name: t('CATALOGUE_EDIT'), exact: true }).click();
      d = dialog(page).filter({ hasText: t('CATALOGUE_EDIT_FIELD', { name: `Rate ${mark}` }) });
      await d.getByLabel(t('CATALOGUE_TYPE'), { exact: true }).selectOption('DECIMAL');
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      const confirm = page.getByRole('dialog', { name: t('CATALOGUE_TYPE_CHANGE_TITLE') });
      await expect(confirm).toContainText(t('CONFIRM_FIELDTYPE_CHANGE'));
      await confirm.getByRole('button', { name: t('ADMIN_OK'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByRole('region', { name: `Rate ${mark}` })).toContainText(t('CATALOGUE_TYPE_DECIMAL'));

      // A dynamic list field on Country: France offers the list above.
      const depot = `Depot ${mark}`;
      d = await newField(page, depot, 'CHARACTER');
      await d.getByLabel(t('CATALOGUE_LIST_TYPE'), { exact: true }).selectOption('dynamic');
      const primary = d.getByRole('combobox', { name: t('CATALOGUE_PRIMARY_FIELD') });
      await primary.fill(`Country ${mark}`);
      await d.getByRole('option', { name: `Country ${mark}` }).click();
      await expect(primary).toHaveValue(`Country ${mark}`);
      // No mapping yet: the editor says why it cannot save.
      await expect(d.getByRole('alert')).toHaveText(t('CATALOGUE_DYNAMIC_MAPPING_REQUIRED'));
      await d.getByRole('button', { name: t('CATALOGUE_MAPPING_ADD'), exact: true }).click();
      await d.getByLabel(t('CATALOGUE_MAPPING_PRIMARY', { n: 1 }), { exact: true }).fill('France');
      await d.getByLabel(t('CATALOGUE_MAPPING_LIST', { n: 1 }), { exact: true }).selectOption({ label: `Depots FR ${mark}` });
      await save(page);
      await expect(page.getByRole('region', { name: depot })).toContainText(t('CATALOGUE_LIST_DYNAMIC'));

      // The fields go into the Contracts archive (the console's archive call); the coded one first, so its column is in view.
      const all = (await (await adminApi(request, adminToken, 'GET', '/fields')).json()) as { Id: number; Name: string }[];
      const id = (name: string) => all.find((f) => f.Name === name)!.Id;
      const added = [code, `Count ${mark}`, `Due ${mark}`, `Rate ${mark}`, `Country ${mark}`, depot].map(id);
      const put = await adminApi(request, adminToken, 'PUT', `/archives/${A.contracts}`, { Name: archiveBefore.Name, Parent: archiveBefore.Parent, Fields: [added[0]!, ...archiveBefore.Fields, ...added.slice(1)] });
      expect(put.status(), await put.text()).toBe(200);

      // As the user: the new columns in the grid at once, with their rules.
      const userContext = await browser.newContext();
      try {
        const userPage = await userContext.newPage();
        const userToken = await signIn(userPage, 'user');
        const search = await getSearch(request, userToken, DB, S.contracts);
        // The grid's columns are the Fields of the page it fetches (the DOM holds only the columns in view).
        const pageAnswer = userPage.waitForResponse((r) => r.url().includes(`/archive/${A.contracts}/documents`) && r.status() === 200);
        await userPage.goto(`/results/${search.Hash}?Id=${S.contracts}&db=${DB}&archive=${A.contracts}&criteria=${encodeURIComponent('[]')}`);
        const columns = ((await (await pageAnswer).json()) as { Fields: { Name: string; Size: number }[] }).Fields;
        for (const name of [code, `Count ${mark}`, `Due ${mark}`, `Rate ${mark}`, `Country ${mark}`, depot]) expect(columns.map((c) => c.Name), name).toContain(name);
        expect(columns.find((c) => c.Name === code)?.Size).toBe(8);
        await expect(gridRow(userPage, 0)).toBeVisible();
        expect(await headerTexts(userPage)).toContain(code);
        await userPage.getByRole('button', { name: t('EDIT_TOGGLE'), exact: true }).click();
        await editCell(userPage, 0, code, 'xy');
        const td = await cell(userPage, 0, code);
        await expect(td).toHaveAttribute('aria-invalid', 'true');
        await expect(td).toHaveAttribute('aria-description', 'Code looks like AB12');
        await editCell(userPage, 0, code, 'AB123456789');
        await expect(await cell(userPage, 0, code)).toHaveAttribute('aria-description', t('FIELD_TOO_LONG'));
        await editCell(userPage, 0, code, 'AB12');
        await expect(await cell(userPage, 0, code)).not.toHaveAttribute('aria-invalid', 'true');

        // The dynamic list's values follow Country (the user app's call).
        const items = await request.get('/api/indexes', { params: { database: DB, Field: id(depot), Filter1: 'France', token: userToken } });
        expect(((await items.json()) as { Items: string[] }).Items).toEqual(['Lille', 'Lyon']);

        // Every catalogue call is refused for the user.
        for (const [method, path] of [
          ['GET', '/fields'],
          ['GET', `/fields/${id(code)}`],
          ['PUT', `/fields/${id(code)}`],
          ['DELETE', `/fields/${id(code)}`],
          ['GET', '/tablefields'],
          ['GET', '/lists'],
          ['PUT', '/lists/'],
        ] as const) {
          const r = await adminApi(request, userToken, method, path, method === 'PUT' ? { Name: 'x', Type: 'CHARACTER', Values: [] } : undefined);
          expect(r.status(), `${method} ${path}`).toBe(403);
        }
      } finally {
        await userContext.close();
      }

      // A table field: columns picked by name; a dynamic list field without the field it depends on
      // warns; removing a column of the saved table field asks REMOVE_FIELD_FROM_TABLEFIELD_MSG.
      const lines = `Lines ${mark}`;
      await tab(page, 'CATALOGUE_TAB_TABLE_FIELDS').click();
      await page.getByRole('button', { name: t('CATALOGUE_ADD_TABLE_FIELD') }).click();
      d = dialog(page);
      await d.getByLabel(t('CATALOGUE_NAME'), { exact: true }).fill(lines);
      const pick = d.getByRole('combobox', { name: t('CATALOGUE_ADD_COLUMN') });
      for (const name of [`Count ${mark}`, `Due ${mark}`, depot]) {
        await pick.fill(name);
        await d.getByRole('option', { name, exact: true }).click();
      }
      const columns = d.getByRole('list', { name: t('CATALOGUE_COLUMNS') });
      await expect(columns.getByRole('listitem')).toHaveCount(3);
      await expect(d.getByRole('status')).toHaveText(t('DYNAMIC_LIST_FIELD_DEPENDS_ON_FIELD', { field: depot, other: `Country ${mark}` }));
      // Not saved yet: removed at once, no question.
      await d.getByRole('button', { name: t('CATALOGUE_REMOVE_COLUMN', { name: depot }), exact: true }).click();
      await expect(columns.getByRole('listitem')).toHaveCount(2);
      await save(page);
      await page.getByRole('region', { name: lines }).getByRole('button', { name: t('CATALOGUE_EDIT'), exact: true }).click();
      d = dialog(page).filter({ hasText: t('CATALOGUE_EDIT_TABLE_FIELD', { name: lines }) });
      await d.getByRole('button', { name: t('CATALOGUE_REMOVE_COLUMN', { name: `Due ${mark}` }), exact: true }).click();
      const ask = page.getByRole('dialog', { name: t('CATALOGUE_REMOVE_COLUMN_TITLE') });
      await expect(ask).toContainText(t('REMOVE_FIELD_FROM_TABLEFIELD_MSG', { field: `Due ${mark}`, name: lines }));
      await ask.getByRole('button', { name: t('ADMIN_OK'), exact: true }).click();
      await save(page);
      await expect(page.getByRole('region', { name: lines }).getByRole('listitem')).toHaveText([`Count ${mark}`]);
    } finally {
      await adminApi(request, adminToken, 'PUT', `/archives/${A.contracts}`, { Name: archiveBefore.Name, Parent: archiveBefore.Parent, Fields: archiveBefore.Fields });
      await cleanUp(request, adminToken, mark);
    }
  });

  test('@touch tablet: tabs and editor are tapped, 44 px high, nothing overflows sideways; a list is deleted by typing its confirmation', async ({ page, request }) => {
    test.setTimeout(90_000);
    const mark = `t${Date.now().toString(36)}`;
    const adminToken = await apiToken(request, 'admin');
    try {
      await signIn(page, 'admin');
      await openCatalogue(page);
      for (const key of ['CATALOGUE_TAB_FIELDS', 'CATALOGUE_TAB_TABLE_FIELDS', 'CATALOGUE_TAB_LISTS']) {
        const box = await tab(page, key).boundingBox();
        expect(box!.height, key).toBeGreaterThanOrEqual(44);
      }
      await tab(page, 'CATALOGUE_TAB_LISTS').tap();
      await expect(tab(page, 'CATALOGUE_TAB_LISTS')).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('button', { name: t('CATALOGUE_ADD_LIST') }).tap();
      const d = dialog(page);
      await d.getByLabel(t('CATALOGUE_NAME'), { exact: true }).fill(`Tap ${mark}`);
      await d.getByLabel(t('CATALOGUE_VALUES'), { exact: true }).fill('One\nTwo');
      await d.getByLabel(t('CATALOGUE_ASSEMBLY_BOUND'), { exact: true }).tap();
      // An assembly-bound list needs a path and parameters; the test call says what this server can do.
      await expect(d.getByRole('alert')).toHaveText(t('CATALOGUE_ASSEMBLY_PATH_REQUIRED'));
      await d.getByLabel(t('CATALOGUE_ASSEMBLY_KIND'), { exact: true }).selectOption('SQL');
      await d.getByLabel(t('CATALOGUE_ASSEMBLY_PATH'), { exact: true }).fill('Server=db;Database=lists');
      await d.getByLabel(t('CATALOGUE_ASSEMBLY_PARAMETERS'), { exact: true }).fill('select name from depots');
      await d.getByRole('button', { name: t('CATALOGUE_ASSEMBLY_TEST'), exact: true }).tap();
      await expect(d.getByRole('status')).toContainText(t('CATALOGUE_ASSEMBLY_NOT_RUN'));
      for (const name of [t('ADMIN_SAVE'), t('ADMIN_CANCEL'), t('CATALOGUE_ASSEMBLY_TEST')]) {
        const box = await d.getByRole('button', { name, exact: true }).boundingBox();
        expect(box!.height, name).toBeGreaterThanOrEqual(44);
      }
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).tap();
      await expect(d).toBeHidden();
      const detail = page.getByRole('region', { name: `Tap ${mark}` });
      await expect(detail).toContainText('[SQL]Server=db;Database=lists');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

      // Delete: enabled only once 'DELETE {NAME}' is typed.
      await detail.getByRole('button', { name: t('ADMIN_DELETE'), exact: true }).tap();
      const del = dialog(page);
      const confirm = del.getByRole('button', { name: t('ADMIN_DELETE'), exact: true });
      await expect(confirm).toBeDisabled();
      await del.getByLabel(t('ADMIN_DELETE_CONFIRM_LABEL'), { exact: true }).fill(`DELETE TAP ${mark.toUpperCase()}`);
      await expect(confirm).toBeEnabled();
      await confirm.tap();
      await expect(del).toBeHidden();
      await expect(page.getByRole('button', { name: new RegExp(`^Tap ${mark}`) })).toHaveCount(0);
    } finally {
      await cleanUp(request, adminToken, mark);
    }
  });
});
