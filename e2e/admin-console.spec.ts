/**
 * The administration console's shell, DATABASES and ARCHIVES modes (issue 13 items 1, 2, 3, 7),
 * against the real server: as admin the console opens from the header's Administration menu; an
 * archive is built under Invoices with fields (none cannot be saved), views (random colours, labels
 * required and unique) and a notification whose <script> is stored and shown inert; `user` sees
 * the archive and its view tabs in the user app at once; the content-index rebuild shows in the
 * tray; the archive is deleted by typing its confirmation. Switching mode with unsaved changes asks
 * first. A database is made (name filtered), its indexes rebuilt and dropped by typing. As `user`
 * every console call is refused. At tablet size (@touch) the console is tapped through.
 * Everything made here is removed afterwards.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, texts } from './editing-support';
import { signIn } from './support';

const t = texts('en');
const DB = 1;
const INVOICES = 1;

const mark = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function adminApi(request: APIRequestContext, token: string, method: 'GET' | 'PUT' | 'DELETE' | 'POST', path: string, data?: unknown) {
  return request.fetch(`/api/admin${path}`, { method, headers: { 'Auth-Token': token }, ...(data === undefined ? {} : { data }) });
}

/** Removes archives and databases whose name holds the mark (a failed test leaves nothing behind). */
async function cleanUp(request: APIRequestContext, m: string) {
  const token = await apiToken(request, 'admin');
  const archives = (await (await adminApi(request, token, 'GET', `/databases/${DB}/archives`)).json()) as { Id: number; Name: string }[];
  for (const a of archives.filter((x) => x.Name.includes(m))) await adminApi(request, token, 'DELETE', `/databases/${DB}/archives/${a.Id}`);
  const dbs = (await (await adminApi(request, token, 'GET', '/databases')).json()) as { Id: number; Name: string }[];
  for (const d of dbs.filter((x) => x.Name.includes(m))) await adminApi(request, token, 'DELETE', `/databases/${d.Id}?drop=true`);
}

const nav = (page: Page, key: string) => page.getByRole('navigation', { name: t('ADMIN_NAVIGATION') }).getByRole('button', { name: t(key), exact: true });
const dialog = (page: Page) => page.getByRole('dialog');
const tree = (page: Page) => page.getByRole('region', { name: t('ADMIN_ARCHIVE_TREE') });

async function openConsole(page: Page, mode?: string) {
  await page.goto(`/admin/full?${mode ? `mode=${mode}&` : ''}db=${DB}`);
  await expect(page.getByTestId('admin-console')).toBeVisible();
}

test.describe('administration console', () => {
  test('an archive built with fields, views and a notification is used by `user` at once, then deleted by typing', async ({ page, request, browser }) => {
    test.setTimeout(180_000);
    const m = mark();
    const name = `Receipts ${m}`;
    try {
      await signIn(page, 'admin');
      // Reached from the header's Administration menu.
      await page.getByTestId('header-admin-menu').click();
      await page.getByRole('button', { name: t('HEADER_FULL_ADMIN') }).click();
      await expect(page).toHaveURL(/\/admin\/full/);
      await expect(page.getByRole('heading', { name: t('ADMIN_MODE_DATABASES') })).toBeVisible();
      await expect(page.getByRole('list', { name: t('ADMIN_MODE_DATABASES') }).getByText('Demo Archive', { exact: true })).toBeVisible();

      // Two databases and none chosen before: none is selected until one is picked.
      const dbSelect = page.getByLabel(t('ADMIN_DATABASE'), { exact: true });
      await expect(dbSelect).toHaveValue('');
      await dbSelect.selectOption({ label: 'Demo Archive' });
      await expect(page).toHaveURL(/db=1/);
      // ARCHIVES by the navigation bar: the address says so, no reload.
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      await nav(page, 'ADMIN_MODE_ARCHIVES').click();
      await expect(page).toHaveURL(/mode=ARCHIVES/);
      await expect(page.getByRole('heading', { name: t('ADMIN_MODE_ARCHIVES') })).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

      // A new sub-archive of Invoices: no field, no save.
      await page.getByTestId('admin-add').click();
      await expect(page.getByTestId('admin-add')).toHaveText(/Add archive/);
      const d = dialog(page);
      await d.getByLabel(t('ADMIN_NAME'), { exact: true }).fill(name);
      await d.getByLabel(t('ADMIN_ARCHIVE_PARENT')).selectOption({ label: 'Invoices' });
      await expect(d.getByText(t('ARCHIVE_FIELDS_REQUIRED'))).toBeVisible();
      await expect(d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true })).toBeDisabled();
      await d.getByRole('button', { name: t('ADMIN_ADD_NAMED', { name: 'Title' }) }).click();
      await d.getByRole('button', { name: t('ADMIN_ADD_NAMED', { name: 'Status' }) }).click();
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(tree(page).getByRole('button', { name })).toHaveAttribute('aria-current', 'true');
      await expect(page.getByTestId('archive-field-names')).toHaveText('Title, Status');

      // Views: a new value gets a random colour; its label is required and unique.
      await page.getByRole('button', { name: t('ADMIN_ARCHIVE_VIEWS'), exact: true }).click();
      await d.getByLabel(t('ADMIN_VIEWS_ENABLED')).check();
      await d.getByLabel(t('ADMIN_VIEWS_STATUS_FIELD')).selectOption({ label: 'Status' });
      await d.getByRole('button', { name: t('ADMIN_VIEW_ADD_VALUE') }).click();
      const first = d.getByRole('group', { name: t('ADMIN_VIEW_VALUE_N', { n: 1 }) });
      await expect(first.getByLabel(t('ADMIN_VIEW_COLOR'))).toHaveValue(/^#[0-9a-f]{6}$/);
      await expect(d.getByText(t('VIEW_LABEL_REQUIRED'))).toBeVisible();
      await first.getByLabel(t('ADMIN_VIEW_LABEL')).fill('Open');
      await first.getByLabel(t('ADMIN_VIEW_VALUE')).fill('Open');
      await d.getByRole('button', { name: t('ADMIN_VIEW_ADD_VALUE') }).click();
      const second = d.getByRole('group', { name: t('ADMIN_VIEW_VALUE_N', { n: 2 }) });
      await second.getByLabel(t('ADMIN_VIEW_LABEL')).fill('open');
      await expect(d.getByText(t('VIEW_LABEL_NOT_UNIQUE'))).toBeVisible();
      await expect(d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true })).toBeDisabled();
      await second.getByLabel(t('ADMIN_VIEW_LABEL')).fill('Closed');
      await second.getByLabel(t('ADMIN_VIEW_VALUE')).fill('Closed');
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByText(t('ADMIN_VIEWS_SUMMARY', { count: 2 }))).toBeVisible();

      // Notification: a field inserted from the menu; a script in the HTML is stored and shown inert.
      await page.getByRole('button', { name: t('ADMIN_ARCHIVE_EDIT_NOTIFICATIONS') }).click();
      await d.getByLabel(t('ADMIN_NOTIFY_TO'), { exact: true }).fill('finance@example.com');
      await d.getByLabel(t('ADMIN_NOTIFY_SUBJECT'), { exact: true }).fill('New receipt');
      const editor = d.getByRole('textbox', { name: t('ADMIN_NOTIFY_MESSAGE') });
      await editor.click();
      await page.keyboard.type('Receipt ');
      await d.getByRole('button', { name: t('ADMIN_RTE_INSERT_FIELD') }).click();
      await d.getByRole('menuitem', { name: 'Title' }).click();
      await expect(editor).toHaveText('Receipt [Title]');
      await editor.evaluate((el) => {
        el.innerHTML += '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      const preview = page.getByTestId('notification-preview');
      await expect(preview).toContainText('Receipt [Title]');
      await expect(preview).toContainText('<script>window.__pwned = 1</script>');
      await expect(preview.locator('script, img')).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

      // Content search on (PDF conversion off and locked), saved; its index rebuilt as a job in the tray.
      await page.getByLabel(t('ADMIN_ARCHIVE_CONVERT_PDF'), { exact: true }).check();
      await page.getByLabel(t('ADMIN_ARCHIVE_CONTENT_SEARCH'), { exact: true }).check();
      await expect(page.getByLabel(t('ADMIN_ARCHIVE_CONVERT_PDF'), { exact: true })).not.toBeChecked();
      await expect(page.getByLabel(t('ADMIN_ARCHIVE_CONVERT_PDF'), { exact: true })).toBeDisabled();
      await page.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(page.getByText(t('ADMIN_SAVED', { name }))).toBeVisible();
      await page.getByRole('button', { name: t('ADMIN_INDEX_REBUILD') }).click();
      await expect(page.getByText(t('ADMIN_INDEX_REBUILD_STARTED', { name, count: 0 }))).toBeVisible();
      await page.getByTestId('header-notifications').click();
      await expect(page.locator('section.notifications-panel').getByText(t('ADMIN_INDEX_REBUILD_JOB', { name }))).toBeVisible();
      await page.getByTestId('header-notifications').click();

      // `user` (who has Invoices) sees the archive, its fields and view tabs at once, and no console.
      const archive = ((await (await adminApi(request, await apiToken(request, 'admin'), 'GET', `/databases/${DB}/archives`)).json()) as { Id: number; Name: string }[]).find((a) => a.Name === name)!;
      const userToken = await apiToken(request, 'user');
      const list = (await (await request.get(`/api/dbs/${DB}/archives?token=${userToken}`)).json()) as { Name: string }[];
      expect(list.map((a) => a.Name)).toContain(name);
      const fields = (await (await request.get(`/api/dbs/${DB}/archives/${archive.Id}?type=fields&token=${userToken}`)).json()) as { Name: string }[];
      expect(fields.map((f) => f.Name)).toEqual(['Title', 'Status']);
      const tabs = (await (await request.get(`/api/dbs/${DB}/archives/${archive.Id}?type=tabs&token=${userToken}`)).json()) as { Label: string }[];
      expect(tabs.map((x) => x.Label)).toEqual(['Open', 'Closed']);
      const stored = (await (await adminApi(request, await apiToken(request, 'admin'), 'GET', `/databases/${DB}/archives/${archive.Id}/notifications`)).json()) as { Message: string };
      expect(stored.Message).toContain('&lt;script&gt;');
      expect(stored.Message).not.toMatch(/<script|<img|onerror/);

      const userContext = await browser.newContext();
      const userPage = await userContext.newPage();
      await signIn(userPage, 'user');
      await expect(userPage.getByTestId('header-admin-menu')).toHaveCount(0);
      await userPage.goto(`/admin/full?mode=ARCHIVES&db=${DB}`);
      await expect(userPage.getByText(t('ADMIN_NOT_ALLOWED'))).toBeVisible();
      await userContext.close();

      // Deleted by typing 'DELETE {NAME}'.
      await page.getByRole('button', { name: t('ADMIN_DELETE'), exact: true }).click();
      const typed = d.getByLabel(t('ADMIN_DELETE_CONFIRM_LABEL'));
      await typed.fill(`DELETE ${name}`);
      await expect(d.getByRole('button', { name: t('ADMIN_DELETE'), exact: true })).toBeDisabled();
      await typed.fill(`DELETE ${name.toUpperCase()}`);
      await d.getByRole('button', { name: t('ADMIN_DELETE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(tree(page).getByRole('button', { name })).toHaveCount(0);
      expect((await request.get(`/api/dbs/${DB}/archives?token=${userToken}`).then((r) => r.json())).map((a: { Name: string }) => a.Name)).not.toContain(name);
    } finally {
      await cleanUp(request, m);
    }
  });

  test('switching mode with unsaved changes asks first; cancel restores nothing lost', async ({ page }) => {
    await signIn(page, 'admin');
    await openConsole(page, 'ARCHIVES');
    await tree(page).getByRole('button', { name: 'Invoices', exact: true }).click();
    const nameBox = page.getByRole('region', { name: 'Invoices' }).getByLabel(t('ADMIN_NAME'), { exact: true });
    await nameBox.fill('Invoices (edited)');
    await nav(page, 'ADMIN_MODE_DATABASES').click();
    const d = dialog(page);
    await expect(d.getByText(t('CONFIRM_GENERIC_UNSAVED_CHANGES'))).toBeVisible();
    await d.getByRole('button', { name: t('ADMIN_CANCEL') }).click();
    await expect(page).toHaveURL(/mode=ARCHIVES/);
    await expect(nameBox).toHaveValue('Invoices (edited)');
    // An edit modal's cancel leaves the archive as it was.
    await page.getByRole('button', { name: t('ADMIN_ARCHIVE_EDIT_FIELDS') }).click();
    await d.getByRole('button', { name: t('ADMIN_REMOVE_NAMED', { name: 'Title' }) }).click();
    await d.getByRole('button', { name: t('ADMIN_CANCEL') }).click();
    await expect(page.getByTestId('archive-field-names')).toContainText('Title');
    await nav(page, 'ADMIN_MODE_DATABASES').click();
    await dialog(page).getByRole('button', { name: t('ADMIN_DISCARD') }).click();
    await expect(page).toHaveURL(/mode=DATABASES/);
    await expect(page.getByRole('heading', { name: t('ADMIN_MODE_DATABASES') })).toBeVisible();
  });

  test('opens on the database the user works in and keeps the choice across visits; the current mode stays readable under the pointer', async ({ page }) => {
    await signIn(page, 'admin');
    // Two databases: the user opens the second in the app, then the console.
    await page.getByRole('button', { name: 'Records', exact: true }).click();
    await expect(page).toHaveURL(/\/view\?db=2\b/);
    await page.goto('/admin/full?mode=ARCHIVES');
    const dbSelect = page.getByLabel(t('ADMIN_DATABASE'), { exact: true });
    await expect(dbSelect.locator('option:checked')).toHaveText('Records');
    // Chosen in the console: the next visit, from another page of the app, opens on it.
    await dbSelect.selectOption({ label: 'Demo Archive' });
    await expect(page).toHaveURL(/db=1\b/);
    await page.goto('/view?db=2');
    await page.goto('/admin/full');
    await expect(dbSelect.locator('option:checked')).toHaveText('Demo Archive');
    // The mode just clicked, the pointer still on it: its own colours, not white on pale blue.
    const archives = nav(page, 'ADMIN_MODE_ARCHIVES');
    await archives.click();
    await expect(archives).toHaveAttribute('aria-current', 'page');
    await archives.hover();
    await expect(archives).toHaveCSS('background-color', 'rgb(31, 78, 121)');
    await expect(archives).toHaveCSS('color', 'rgb(255, 255, 255)');
  });

  test('a database is created with its name filtered, its indexes rebuilt, and dropped by typing', async ({ page, request }) => {
    const m = mark();
    try {
      await signIn(page, 'admin');
      await openConsole(page);
      await page.getByTestId('admin-add').click();
      const d = dialog(page);
      const nameBox = d.getByLabel(t('ADMIN_NAME'), { exact: true });
      await nameBox.fill(`Branch <${m}> / #2`);
      await expect(nameBox).toHaveValue(`Branch${m}2`);
      await d.getByRole('button', { name: t('ADMIN_SAVE'), exact: true }).click();
      await expect(d).toBeHidden();
      const name = `Branch${m}2`;
      // The new database is the selected one, and remembered.
      await expect(page.getByLabel(t('ADMIN_DATABASE'), { exact: true }).locator('option:checked')).toHaveText(name);
      await page.getByRole('button', { name: t('ADMIN_REBUILD_INDEXES_NAMED', { name }) }).click();
      await expect(page.getByText(t('ADMIN_REBUILD_INDEXES_DONE', { name }))).toBeVisible();
      await page.getByRole('button', { name: t('ADMIN_DELETE_NAMED', { name }) }).click();
      await d.getByLabel(t('ADMIN_DELETE_CONFIRM_LABEL')).fill(`DELETE ${name.toUpperCase()}`);
      await d.getByLabel(t('ADMIN_DATABASE_DROP')).check();
      await d.getByRole('button', { name: t('ADMIN_DELETE'), exact: true }).click();
      await expect(d).toBeHidden();
      await expect(page.getByRole('list', { name: t('ADMIN_MODE_DATABASES') }).getByText(name, { exact: true })).toHaveCount(0);
    } finally {
      await cleanUp(request, m);
    }
  });

  test("every console call is refused to `user`", async ({ request }) => {
    const token = await apiToken(request, 'user');
    const calls: [string, string, unknown?][] = [
      ['GET', '/databases'],
      ['POST', '/databases', { Name: 'Mine' }],
      ['GET', `/databases/${DB}?rebuild=true`],
      ['PUT', `/databases/${DB}`, { Name: 'Taken' }],
      ['DELETE', `/databases/${DB}?drop=true`],
      ['GET', `/databases/${DB}/archives`],
      ['POST', `/databases/${DB}/archives`, { Name: 'X', Parent: null, Fields: [1] }],
      ['PUT', `/databases/${DB}/archives/${INVOICES}`, { Name: 'X', Parent: null, Fields: [1] }],
      ['DELETE', `/databases/${DB}/archives/${INVOICES}`],
      ['GET', `/databases/${DB}/archives/${INVOICES}/notifications?includeGlobal=true`],
      ['PUT', `/databases/${DB}/archives/${INVOICES}/notifications`, { To: '', From: '', Subject: '', Message: '' }],
      ['GET', `/databases/${DB}/archives/${INVOICES}/indexrebuild?docCount=1000`],
    ];
    for (const [method, path, data] of calls) {
      const res = await adminApi(request, token, method as 'GET', path, data);
      expect(res.status(), `${method} ${path}`).toBe(403);
    }
  });

  test('@touch the console at tablet size: navigation, archive and a modal by touch, 44 px targets, no sideways scroll', async ({ page }) => {
    await signIn(page, 'admin');
    await openConsole(page, 'ARCHIVES');
    const toggle = page.getByRole('button', { name: t('ADMIN_NAV_COLLAPSE') }).or(page.getByRole('button', { name: t('ADMIN_NAV_EXPAND') }));
    await toggle.tap();
    await toggle.tap();
    await tree(page).getByRole('button', { name: 'Invoices', exact: true }).tap();
    await page.getByRole('button', { name: t('ADMIN_ARCHIVE_VIEWS'), exact: true }).tap();
    const d = dialog(page);
    await expect(d.getByRole('group', { name: t('ADMIN_VIEW_VALUE_N', { n: 1 }) }).getByLabel(t('ADMIN_VIEW_LABEL'))).toHaveValue('New');
    await d.getByRole('button', { name: t('ADMIN_CANCEL') }).tap();
    await expect(d).toBeHidden();
    for (const el of [page.getByTestId('admin-add'), nav(page, 'ADMIN_MODE_DATABASES'), tree(page).getByRole('button', { name: 'Invoices', exact: true })]) {
      const box = await el.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    for (const size of [{ width: 768, height: 1024 }, { width: 1024, height: 768 }]) {
      await page.setViewportSize(size);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await nav(page, 'ADMIN_MODE_DATABASES').tap();
    await expect(page).toHaveURL(/mode=DATABASES/);
  });
});
