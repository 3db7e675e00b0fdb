/**
 * Helpers of the editing browser tests (editing, editing-lists, editing-locales, editing-touch):
 * the app's texts in each language (read from public/languages, so a test finds controls by the
 * names a user of that language sees), a sign-in in any language, documents prepared through the
 * API with a mark no other test uses (and their values put back afterwards), and readers of grid
 * cells by column name.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO } from './support';
import { A, F, S, expect, gridRow, gridRows, headerTexts, type Doc, type DocPage } from './grid-support';

export type Lang = 'en' | 'de' | 'fr';
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The app's text of a key in one language, with {{vars}} filled in. */
export function texts(lang: Lang): Translate {
  const map = JSON.parse(readFileSync(resolve('public/languages', `${lang}.json`), 'utf8')) as Record<string, string>;
  return (key, vars = {}) => {
    const s = map[key];
    if (s === undefined) throw new Error(`${key} is not in ${lang}.json`);
    return s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
  };
}

/** Signs in through the login page in the app's language; returns the token the server issued. */
export async function signInAs(page: Page, who: keyof typeof DEMO, t: Translate): Promise<string> {
  const { user, password } = DEMO[who];
  await page.goto('/login');
  await page.getByLabel(t('LOGIN_USER_NAME'), { exact: true }).fill(user);
  await page.getByLabel(t('LOGIN_PASSWORD'), { exact: true }).fill(password);
  const licence = page.waitForResponse((r) => r.url().includes('/api/licenses') && r.request().method() === 'GET' && r.status() === 200);
  await page.getByRole('button', { name: t('LOGIN_SUBMIT'), exact: true }).click();
  const body = (await (await licence).json()) as { Token: string };
  await expect(page).toHaveURL(/\/(select|view)/);
  return body.Token;
}

/** An API token of a demo user (HTTP Basic), for setting up and checking documents. */
export async function apiToken(request: APIRequestContext, who: keyof typeof DEMO): Promise<string> {
  const { user, password } = DEMO[who];
  const res = await request.get('/api/licenses', { headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Token: string }).Token;
}

export interface SearchInfo {
  Hash: string;
  Detail: { ID: number; FID: number | null; Prompt: string }[];
}

export async function getSearch(request: APIRequestContext, token: string, db: number, searchId: number): Promise<SearchInfo> {
  const res = await request.get(`/api/dbs/${db}/searches/${searchId}`, { params: { token } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as SearchInfo;
}

/** The id of a search prompt, for criteria ([{ ID, VAL }]). */
export function promptId(search: SearchInfo, prompt: string): number {
  const d = search.Detail.find((x) => x.Prompt === prompt);
  expect(d, `prompt ${prompt}`).toBeDefined();
  return d!.ID;
}

export async function searchDocs(
  request: APIRequestContext,
  token: string,
  q: { db?: number; searchId: number; archiveId: number; criteria?: unknown[]; sort?: string; rpp?: number },
): Promise<DocPage> {
  const params: Record<string, string | number> = { token, page: 1, RecordsPerPage: q.rpp ?? 25, Count: 'true' };
  if (q.criteria) params.SearchCriteria = JSON.stringify(q.criteria);
  if (q.sort) params.sort = q.sort;
  const res = await request.get(`/api/dbs/${q.db ?? 1}/searches/${q.searchId}/archive/${q.archiveId}/documents`, { params });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as DocPage;
}

export interface FieldValue {
  ID: number;
  VAL: string;
  MVAL?: string[];
}

/** PUT FieldData as any client would (no If-Match: no conflict check). */
export function putFields(request: APIRequestContext, token: string, doc: Pick<Doc, 'Id' | 'Hash' | 'ArchiveId'>, fields: FieldValue[], db = 1) {
  return request.put(`/api/UpdateDocument/databases/${db}/archive/${doc.ArchiveId}/document/${doc.Id}/FieldData`, {
    params: { token, secureId: doc.Hash },
    data: fields,
  });
}

export async function mustPut(request: APIRequestContext, token: string, doc: Pick<Doc, 'Id' | 'Hash' | 'ArchiveId'>, fields: FieldValue[]): Promise<void> {
  const res = await putFields(request, token, doc, fields);
  expect(res.status(), await res.text()).toBe(200);
}

/** A document's value of a field as the wire carries it (MVAL for multi-value fields and table columns). */
export function wire(d: Doc, id: number): FieldValue {
  const f = d.Fields.find((x) => x.ID === id);
  return { ID: id, VAL: f?.VAL ?? '', ...(f?.MVAL ? { MVAL: [...f.MVAL] } : {}) };
}

/** The values of `ids` as `d` has them now: put back with mustPut when the test is done. */
export const snapshot = (d: Doc, ids: readonly number[]): FieldValue[] => ids.filter((id) => d.Fields.some((f) => f.ID === id)).map((id) => wire(d, id));

export async function updatedCount(request: APIRequestContext, token: string, d: Pick<Doc, 'Id' | 'Hash' | 'ArchiveId'>): Promise<number> {
  const res = await request.get(`/api/dbs/1/archives/${d.ArchiveId}/documents/${d.Id}/audit`, { params: { token, SecureId: d.Hash } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { Category: string }[]).filter((e) => e.Category === 'updated').length;
}

/** A mark for titles and tags that no other test (or run) uses. */
export const uniqueMark = (prefix: string): string => `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** The invoice fields the editing tests change (and put back). */
export const INVOICE_FIELDS = [F.title, F.invoiceNumber, F.documentDate, F.amount, F.department, F.status, 17];

/**
 * An invoice no other test edits (the `slot`-th of those with the highest invoice numbers; the
 * other specs edit the first rows of the default order), given a unique title to search it by.
 */
export async function prepareInvoice(request: APIRequestContext, token: string, slot: number, prefix: string) {
  const top = await searchDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, sort: `${F.invoiceNumber}:desc`, rpp: 40 });
  // Of the Invoices archive itself: its sub-archive (Paid Invoices) has fewer fields.
  const original = top.Docs.filter((d) => d.ArchiveId === A.invoices)[slot]!;
  const restore = snapshot(original, INVOICE_FIELDS);
  const mark = uniqueMark(prefix);
  await mustPut(request, token, original, [{ ID: F.title, VAL: mark }]);
  const search = await getSearch(request, token, 1, S.allInvoices);
  const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
  const fetch = async (): Promise<Doc> => {
    const p = await searchDocs(request, token, { searchId: S.allInvoices, archiveId: A.invoices, criteria });
    expect(p.Docs, `the document titled ${mark}`).toHaveLength(1);
    return p.Docs[0]!;
  };
  return { mark, criteria, hash: search.Hash, doc: await fetch(), fetch, restore: () => mustPut(request, token, original, restore) };
}

// --- the grid ------------------------------------------------------------------------------

/** Opens a search's results for the given criteria, straight through the address. */
export async function openResults(page: Page, q: { db?: number; searchId: number; hash: string; archiveId: number; criteria: unknown[] }): Promise<void> {
  const params = new URLSearchParams({ Id: String(q.searchId), db: String(q.db ?? 1), archive: String(q.archiveId), criteria: JSON.stringify(q.criteria) });
  await page.goto(`/results/${q.hash}?${params.toString()}`);
  await expect(gridRow(page, 0)).toBeVisible();
}

export async function cell(page: Page, row: number, column: string): Promise<Locator> {
  const headers = await headerTexts(page);
  const idx = headers.indexOf(column);
  expect(idx, `column ${column} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return gridRow(page, row).locator(`td[aria-colindex="${idx + 1}"]`);
}

/** The index of the rendered row that shows `text`. */
export async function rowOf(page: Page, text: string): Promise<number> {
  await expect(gridRows(page).filter({ hasText: text })).toHaveCount(1);
  const all = await gridRows(page).allTextContents();
  return all.findIndex((s) => s.includes(text));
}

/** Opens a cell's text editor (double click), replaces its text and commits with Enter; returns the text it opened with. */
export async function editCell(page: Page, row: number, column: string, text: string): Promise<string> {
  await (await cell(page, row, column)).dblclick();
  const input = page.locator('.results-grid textarea.handsontableInput').first();
  await expect(input).toBeVisible();
  const opened = await input.inputValue();
  await input.fill(text);
  await input.press('Enter');
  return opened;
}

/** Picks an item in a fixed-list cell (Handsontable's select editor). */
export async function chooseInCell(page: Page, row: number, column: string, item: string): Promise<void> {
  await (await cell(page, row, column)).dblclick();
  const select = page.locator('.results-grid .htSelectEditor select').first();
  await expect(select).toBeVisible();
  await select.selectOption(item);
  await select.press('Enter');
}

/** Normalises the spaces Intl puts in numbers (no-break, narrow no-break) to plain ones. */
export const plainSpaces = (s: string): string => s.replace(/[\u00a0\u202f]/g, ' ');

/**
 * Types `value` into `input` and leaves it for `next` in one task of the page, so the blur comes
 * before the app has rendered the keystroke: what a loaded tablet does now and then. The value typed
 * last must still be the one judged and saved.
 */
export async function typeAndLeaveAtOnce(input: Locator, value: string, next: Locator): Promise<void> {
  // Focused without a click or tap (as Tab does): the grid gets no pointer event telling it focus
  // left, and must still not take focus back when it redraws.
  await input.focus();
  // By id, found when the script runs: the node a handle taken earlier pointed at may have been redrawn.
  const nextId = await next.getAttribute('id');
  expect(nextId, 'the input to move to has an id').toBeTruthy();
  await input.evaluate(
    (el, [v, id]) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(el, v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      document.getElementById(id!)!.focus();
    },
    [value, nextId] as const,
  );
}

/** A control a finger can hit: at least 44x44 px (the tablet rule in DEVELOPERS.md). */
export async function expectTapTarget(control: Locator, what: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.height, `${what}: height`).toBeGreaterThanOrEqual(44);
  expect(box!.width, `${what}: width`).toBeGreaterThanOrEqual(44);
}
