/**
 * The console's SEARCHES and ADVANCED_LINKS modes and the DXC sources dialog (issue 13 items 5, 6, 7),
 * against the real server: as admin a search is built over Invoices (icon picked from the capped
 * suggestions, a Department parameter, the no-archives warning on the way), and `user` finds it in the
 * user app's list at once and runs it; an advanced link is written with the placeholder suggestions
 * that appear once typing pauses; a DXC source is added (a duplicate name is refused, the connection
 * test says what it can do); as `user` every one of these calls is 403; at tablet size (@touch) the
 * search editor is tapped through. Everything made here is removed afterwards.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, texts } from './editing-support';
import { F, apiDocs, openDemo, runSearch } from './grid-support';
import { signIn } from './support';

const t = texts('en');
const DB = 1;
const INVOICES = 1;

const mark = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const dialog = (page: Page) => page.getByRole('dialog').last();

async function api(request: APIRequestContext, token: string, method: 'GET' | 'PUT' | 'DELETE' | 'POST', path: string, data?: unknown) {
  return request.fetch(path, { method, headers: { 'Auth-Token': token }, ...(data === undefined ? {} : { data }) });
}

/** Removes the searches, links and DXC sources whose name holds the mark. */
async function cleanUp(request: APIRequestContext, m: string) {
  const token = await apiToken(request, 'admin');
  const searches = (await (await api(request, token, 'GET', `/api/admin/databases/${DB}/searches`)).json()) as { Id: number; Name: string }[];
  for (const s of searches.filter((x) => x.Name.includes(m))) await api(request, token, 'DELETE', `/api/admin/databases/${DB}/searches/${s.Id}`);
  const links = (await (await api(request, token, 'GET', `/api/admin/databases/${DB}/advancedlinks`)).json()) as { Id: number; Name: string }[];
  for (const l of links.filter((x) => x.Name.includes(m))) await api(request, token, 'DELETE', `/api/AdvancedLinks/databases/${DB}?id=${l.Id}`);
  const dxc = (await (await api(request, token, 'GET', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc`)).json()) as { Id: number; Name: string }[];
  for (const d of dxc.filter((x) => x.Name.includes(m))) await api(request, token, 'DELETE', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc/${d.Id}`);
}

async function openMode(page: Page, mode: string) {
  await page.goto(`/admin/full?mode=${mode}&db=${DB}`);
  await expect(page.getByTestId('admin-console')).toBeVisible();
}

test.describe('console searches, advanced links and DXC sources', () => {
  test('a search built in the console is listed and run by `user` at once', async ({ page, browser, request }) => {
    const m = mark();
    const name = `Finance invoices ${m}`;
    try {
      await signIn(page, 'admin');
      await openMode(page, 'SEARCHES');
      await expect(page.getByRole('button', { name: 'All Invoices', exact: true })).toBeVisible();
      await page.getByTestId('admin-add').click();
      await expect(page.getByTestId('admin-add')).toHaveText(/Add search/);
      const d = dialog(page);
      await expect(d.getByRole('heading', { name: t('ADMIN_SEARCH_NEW_TITLE') })).toBeVisible();
      // No name: no save. Top level with no archives: the §5 warning.
      await expect(d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true })).toBeDisabled();
      await expect(d.getByTestId('search-no-archives')).toHaveText(t('ADMIN_SEARCH_WARN_NO_ARCHIVES'));
      await d.getByLabel(t('ADMIN_SEARCH_NAME'), { exact: true }).fill(name);
      // The Versions archive is not offered.
      await expect(d.getByLabel('Contract Versions', { exact: true })).toHaveCount(0);
      await d.getByLabel('Invoices', { exact: true }).check();
      await expect(d.getByTestId('search-no-archives')).toHaveCount(0);

      // Icon: suggestions as typed, at most 100; a name not in the list keeps Save off.
      const icon = d.getByRole('combobox', { name: t('ADMIN_SEARCH_ICON') });
      await icon.fill('a');
      await expect(d.getByTestId('icon-suggestions').getByRole('option')).toHaveCount(100);
      await icon.fill('not_an_icon');
      await expect(d.getByText(t('ADMIN_SEARCH_ICON_INVALID')).first()).toBeVisible();
      await expect(d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true })).toBeDisabled();
      await icon.fill('savi');
      await d.getByTestId('icon-suggestions').getByRole('option', { name: 'savings', exact: true }).click();
      await expect(icon).toHaveValue('savings');

      // A parameter on Department, Equals.
      await d.getByRole('button', { name: t('ADMIN_SEARCH_PARAM_ADD') }).click();
      await d.getByLabel(t('ADMIN_SEARCH_PARAM_FIELD_N', { n: 1 })).selectOption({ label: 'Department' });
      await expect(d.getByLabel(t('ADMIN_SEARCH_PARAM_PROMPT_N', { n: 1 }))).toHaveValue('Department');
      await d.getByLabel(t('ADMIN_SEARCH_PARAM_CONDITION_N', { n: 1 })).selectOption({ label: t('ADMIN_SEARCH_COND_EQUALS') });
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByText(t('ADMIN_SEARCH_SAVED', { name }))).toBeVisible();
      await expect(page.getByTestId('search-detail')).toContainText('Department');

      // As `user` in another browser: the search is in the list and runs.
      const ctx = await browser.newContext();
      const userPage = await ctx.newPage();
      const token = await openDemo(userPage, 'user');
      await userPage.getByTestId('search-list').getByRole('button', { name, exact: true }).click();
      await expect(userPage.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
      await userPage.getByLabel('Department', { exact: true }).selectOption('Finance');
      const criteria = await runSearch(userPage);
      const list = (await (await request.get(`/api/dbs/${DB}/searches`, { params: { token } })).json()) as { Id: number; Name: string }[];
      const id = list.find((s) => s.Name === name)!.Id;
      const docs = await apiDocs(request, token, { searchId: id, archiveId: INVOICES, criteria });
      expect(docs.Count).toBeGreaterThan(0);
      await expect(userPage.getByTestId('results-count')).toHaveText(`${docs.Count} ${docs.Count === 1 ? 'document' : 'documents'}`);
      await ctx.close();

      // Deleted by typing just its name.
      await page.getByTestId('search-detail').getByRole('button', { name: t('ADMIN_DELETE') }).click();
      const del = dialog(page);
      const confirm = del.getByRole('button', { name: t('ADMIN_DELETE'), exact: true });
      await del.getByLabel(t('ADMIN_DELETE_CONFIRM_LABEL')).fill(`DELETE ${name}`.toUpperCase());
      await expect(confirm).toBeDisabled();
      await del.getByLabel(t('ADMIN_DELETE_CONFIRM_LABEL')).fill(name);
      await confirm.click();
      await expect(page.getByText(t('ADMIN_SEARCH_DELETED', { name }))).toBeVisible();
      await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
    } finally {
      await cleanUp(request, m);
    }
  });

  test('an advanced link with placeholder suggestions, and a DXC source of Invoices', async ({ page, request }) => {
    const m = mark();
    const linkName = `Invoice in ERP ${m}`;
    const dxcName = `CRM ${m}`;
    try {
      await signIn(page, 'admin');
      await openMode(page, 'ADVANCED_LINKS');
      await page.getByTestId('admin-add').click();
      const d = dialog(page);
      await d.getByLabel(t('ADMIN_LINK_NAME'), { exact: true }).fill(linkName);
      await d.getByLabel(t('ADMIN_LINK_ARCHIVE'), { exact: true }).selectOption({ label: 'Invoices' });
      const pattern = d.getByRole('combobox', { name: t('ADMIN_LINK_URL') });
      await pattern.fill('https://erp.example.com/invoice/');
      await pattern.press('End');
      await pattern.pressSequentially('{inv');
      // Shown once typing has paused (500 ms), filtered by what follows the brace.
      const suggestions = d.getByTestId('link-suggestions');
      await expect(suggestions.getByRole('option')).toHaveText(['{Invoice Number}']);
      await pattern.press('ArrowDown');
      await pattern.press('Enter');
      await expect(pattern).toHaveValue('https://erp.example.com/invoice/{Invoice Number}');
      await pattern.pressSequentially('?doc={');
      await expect(suggestions.getByRole('option').first()).toHaveText('{DocumentID}');
      await suggestions.getByRole('option', { name: '{DocumentID}' }).click();
      await expect(pattern).toHaveValue('https://erp.example.com/invoice/{Invoice Number}?doc={DocumentID}');
      await pattern.pressSequentially('&x={Nope}');
      await expect(d.getByTestId('link-unknown')).toContainText('{Nope}');
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByTestId('link-detail')).toContainText('{Invoice Number}?doc={DocumentID}');
      // The user side reads it at once.
      const token = await apiToken(request, 'user');
      const links = (await (await api(request, token, 'GET', `/api/AdvancedLinks/databases/${DB}?archiveId=${INVOICES}`)).json()) as { Name: string }[];
      expect(links.map((l) => l.Name)).toContain(linkName);

      // DXC sources from the archive editor.
      await openMode(page, 'ARCHIVES');
      await page.getByRole('region', { name: t('ADMIN_ARCHIVE_TREE') }).getByRole('button', { name: 'Invoices', exact: true }).click();
      await page.getByRole('button', { name: t('ADMIN_ARCHIVE_DXC'), exact: true }).click();
      const list = page.getByRole('dialog', { name: t('ADMIN_DXC_TITLE', { archive: 'Invoices' }) });
      await expect(list.getByTestId('dxc-list')).toContainText('ERP invoices');
      await list.getByRole('button', { name: t('ADMIN_DXC_ADD') }).click();
      const edit = page.getByRole('dialog', { name: t('ADMIN_DXC_NEW_TITLE') });
      const save = edit.getByRole('button', { name: t('ADMIN_SAVE'), exact: true });
      await edit.getByLabel(t('ADMIN_DXC_NAME'), { exact: true }).fill('erp INVOICES');
      await expect(edit.getByText(t('DXC_SOURCE_NAME_EXISTS'))).toBeVisible();
      await expect(save).toBeDisabled();
      await edit.getByLabel(t('ADMIN_DXC_NAME'), { exact: true }).fill(dxcName);
      await edit.getByLabel(t('ADMIN_DXC_CONNECTION')).fill('Server=crm.example.com;Database=crm');
      await edit.getByRole('button', { name: t('ADMIN_DXC_TEST') }).click();
      await expect(edit.getByTestId('dxc-test-result')).toHaveText(t('DXC_CONNECTION_UNSUPPORTED'));
      await edit.getByLabel(t('ADMIN_DXC_CONNECTION')).fill('postgres://u:p@127.0.0.1:1/crm');
      await edit.getByRole('button', { name: t('ADMIN_DXC_TEST') }).click();
      // Nothing listens there: one plain answer, given when the test's timeout is up.
      await expect(edit.getByTestId('dxc-test-result')).toHaveText(t('DXC_CONNECTION_UNREACHABLE'), { timeout: 30_000 });
      await edit.getByRole('button', { name: t('ADMIN_DXC_MAPPING_ADD') }).click();
      await edit.getByLabel(t('ADMIN_DXC_ARCHIVE_FIELD_N', { n: 1 })).selectOption({ label: 'Customer' });
      await edit.getByLabel(t('ADMIN_DXC_MAPPED_FIELD_N', { n: 1 })).fill('CUSTOMER_NAME');
      await save.click();
      await expect(edit).toBeHidden();
      await expect(list.getByTestId('dxc-list')).toContainText(dxcName);
      const admin = await apiToken(request, 'admin');
      const stored = (await (await api(request, admin, 'GET', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc`)).json()) as { Name: string; Mapping: unknown[] }[];
      expect(stored.find((s) => s.Name === dxcName)?.Mapping).toEqual([{ ArchiveField: 6, MappedField: 'CUSTOMER_NAME', Required: false }]);
    } finally {
      await cleanUp(request, m);
    }
  });

  test('a search added while `user` has the list cached appears as soon as the search screen opens again', async ({ page, request }) => {
    const m = mark();
    const name = `Added later ${m}`;
    try {
      await openDemo(page, 'user');
      await expect(page.getByTestId('search-list').getByRole('button', { name: 'All Invoices', exact: true })).toBeVisible();
      const admin = await apiToken(request, 'admin');
      const body = {
        Name: name, Parent: 0, Archives: [INVOICES], Icon: 'savings', Parameters: [{ Field: 1, Prompt: 'Title', Condition: 'Contains' }],
        AdvancedGrouping: false, GrantAll: false, ContentSearch: { Phonics: false, Stemming: false, Fuzziness: 0 },
        MultiValue: false, DisplayViewTabs: false, UseTime: false, ShownInList: true, IsDefault: false,
      };
      expect((await api(request, admin, 'POST', `/api/admin/databases/${DB}/searches`, body)).status()).toBe(200);
      // The list was fetched moments ago (well within its 5-minute freshness) and is kept on the device.
      await page.reload();
      await expect(page.getByTestId('search-list').getByRole('button', { name, exact: true })).toBeVisible();
    } finally {
      await cleanUp(request, m);
    }
  });

  test('a search changed while `user` keeps its prompts on the device: the next call shows the new prompt', async ({ page, request }) => {
    const m = mark();
    const name = `Changed later ${m}`;
    const body = (parameters: { Field: number; Prompt: string; Condition: string }[]) => ({
      Name: name, Parent: 0, Archives: [INVOICES], Icon: 'savings', Parameters: parameters,
      AdvancedGrouping: false, GrantAll: true, ContentSearch: { Phonics: false, Stemming: false, Fuzziness: 0 },
      MultiValue: false, DisplayViewTabs: false, UseTime: false, ShownInList: true, IsDefault: false,
    });
    const title = { Field: 1, Prompt: 'Title', Condition: 'Contains' };
    try {
      const admin = await apiToken(request, 'admin');
      const created = await api(request, admin, 'POST', `/api/admin/databases/${DB}/searches`, body([title]));
      expect(created.status()).toBe(200);
      const id = ((await created.json()) as { Search: { Id: number } }).Search.Id;

      await openDemo(page, 'user');
      await page.getByTestId('search-list').getByRole('button', { name, exact: true }).click();
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
      await expect(page.getByLabel('Title', { exact: true })).toBeVisible();
      await expect(page.getByLabel('Department', { exact: true })).toHaveCount(0);

      // The search's prompts are kept for minutes, on the device too; the administrator adds one.
      const changed = await api(request, admin, 'PUT', `/api/admin/databases/${DB}/searches/${id}`, body([title, { Field: F.department, Prompt: 'Department', Condition: 'Equals' }]));
      expect(changed.status(), await changed.text()).toBe(200);

      // The next answer the app gets carries the new catalogue version: the prompts are read again.
      await page.reload();
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
      await expect(page.getByLabel('Department', { exact: true })).toBeVisible();
    } finally {
      await cleanUp(request, m);
    }
  });

  test('as `user` the console calls for searches, links and DXC sources are refused (403)', async ({ request }) => {
    const token = await apiToken(request, 'user');
    const calls: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', `/api/admin/databases/${DB}/searches`],
      ['GET', `/api/admin/databases/${DB}/searches/1`],
      ['POST', `/api/admin/databases/${DB}/searches`, { Name: 'x' }],
      ['PUT', `/api/admin/databases/${DB}/searches/1`, { Name: 'x' }],
      ['DELETE', `/api/admin/databases/${DB}/searches/1`],
      ['GET', `/api/admin/databases/${DB}/designer`],
      ['GET', `/api/admin/databases/${DB}/advancedlinks`],
      ['POST', `/api/AdvancedLinks/databases/${DB}`, { Name: 'x' }],
      ['PUT', `/api/AdvancedLinks/databases/${DB}?id=1`, { Name: 'x' }],
      ['DELETE', `/api/AdvancedLinks/databases/${DB}?id=1`],
      ['GET', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc`],
      ['POST', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc`, { Name: 'x' }],
      ['GET', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc/1`],
      ['PUT', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc/1`, { Name: 'x' }],
      ['DELETE', `/api/admin/databases/${DB}/archives/${INVOICES}/dxc/1`],
      ['PUT', '/api/admin/DXTables', { ConnectionString: 'postgres://127.0.0.1:1/x' }],
    ];
    for (const [method, path, body] of calls) {
      const r = await api(request, token, method, path, body);
      expect(r.status(), `${method} ${path}`).toBe(403);
    }
  });

  test('@touch the search editor at tablet size: tapped through, 44 px targets, no sideways scroll', async ({ page }) => {
    await signIn(page, 'admin');
    await openMode(page, 'SEARCHES');
    await page.getByRole('button', { name: 'All Invoices', exact: true }).tap();
    await page.getByTestId('search-detail').getByRole('button', { name: t('ADMIN_EDIT') }).tap();
    const d = dialog(page);
    await expect(d.getByLabel(t('ADMIN_SEARCH_NAME'), { exact: true })).toHaveValue('All Invoices');
    const icon = d.getByRole('combobox', { name: t('ADMIN_SEARCH_ICON') });
    await icon.tap();
    await icon.fill('receipt');
    await d.getByTestId('icon-suggestions').getByRole('option', { name: 'receipt', exact: true }).tap();
    await expect(icon).toHaveValue('receipt');
    for (const el of [
      d.getByLabel(t('ADMIN_SEARCH_PARAM_FIELD_N', { n: 1 })),
      d.getByRole('button', { name: t('ADMIN_SEARCH_PARAM_REMOVE', { n: 1 }) }),
      d.getByRole('button', { name: t('ADMIN_SEARCH_PARAM_ADD') }),
      d.getByRole('button', { name: t('ADMIN_CANCEL') }),
    ]) {
      const box = await el.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    for (const size of [{ width: 768, height: 1024 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }
    // Cancel keeps the original (the modal edits a copy).
    await d.getByRole('button', { name: t('ADMIN_CANCEL') }).tap();
    await expect(d).toBeHidden();
    await expect(page.getByTestId('search-detail')).toContainText('receipt_long');
  });
});
