// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/db/db';
import { createQueryClient } from '../../src/app/query-client';
import { resetSessionForTests, setSession } from '../../src/session/session';
import { LocalSettings, writeLocalSettings } from '../../src/db/local-settings';
import { DETAILS, SEARCHES, searchServer } from './search-server';
import { renderSearch } from './render-search';

beforeEach(async () => {
  resetSessionForTests();
  await db.settings.clear();
  await setSession({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });
});
afterEach(() => {
  cleanup();
  onlineManager.setOnline(true);
});

const input = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
const optionsOf = (name: string) => [...screen.getByLabelText(name).querySelectorAll('option')].map((o) => o.value);
const criteriaOf = (here: string) => JSON.parse(new URL(here, 'http://x').searchParams.get('criteria')!) as unknown;

describe('search list', () => {
  it('shows the searches with Settings bit 4 as buttons and preselects the default with its prompts', async () => {
    renderSearch('/view?db=2', searchServer());
    const list = await screen.findByTestId('search-list');
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['All Invoices', 'Correspondence']);
    expect(screen.getByRole('button', { name: 'All Invoices' }).getAttribute('aria-current')).toBe('true');
    expect(await screen.findByRole('heading', { name: 'All Invoices' })).toBeTruthy();
    for (const name of ['Title', 'Invoice Number', 'Document Date: from', 'Document Date: to', 'Amount', 'Customer', 'Department', 'Content search', 'Records per page']) {
      expect(screen.getByLabelText(name), name).toBeTruthy();
    }
    // The two "Title" prompts are one input.
    expect(screen.getAllByLabelText('Title')).toHaveLength(1);
    expect(input('Document Date: from').placeholder).toBe('MM/DD/YYYY');
    expect(input('Records per page').value).toBe('10');
  });

  it('says when there is no default search, and when there are no searches', async () => {
    const { unmount } = renderSearch('/view?db=2', searchServer({ searches: [{ ...SEARCHES[1] }] }));
    expect(await screen.findByText('No default search is set for this database. Choose a search from the list.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Correspondence' })).toBeTruthy();
    unmount();
    renderSearch('/view?db=2', searchServer({ searches: [SEARCHES[2]] }));
    expect(await screen.findByTestId('no-searches')).toBeTruthy();
  });

  it('/scan shows the same list and a note that scanning comes later', async () => {
    renderSearch('/scan?db=2', searchServer());
    expect(await screen.findByTestId('scan-note')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'All Invoices' })).toBeTruthy();
  });
});

describe('prompt form', () => {
  it('filters numbers and decimals, refuses an invalid date inline, then runs with the contract criteria', async () => {
    const app = renderSearch('/view?db=2', searchServer());
    await screen.findByLabelText('Invoice Number');
    type('Title', 'budget');
    type('Invoice Number', '-12a3');
    expect(input('Invoice Number').value).toBe('-123');
    type('Amount', '1x2.5.0');
    expect(input('Amount').value).toBe('12.50');
    type('Document Date: from', '02/30/2024');
    type('Records per page', '20000');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Enter a valid date as MM/DD/YYYY.')).toBeTruthy();
    expect(input('Document Date: from').getAttribute('aria-invalid')).toBe('true');
    expect(app.here()).toMatch(/^\/view/);

    type('Document Date: from', '1/2/24');
    type('Content search', 'quarterly report');
    fireEvent.submit(input('Title').form!);
    await waitFor(() => expect(app.here()).toMatch(/^\/results\/h-all\?/));
    const u = new URL(app.here(), 'http://x');
    expect(Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'time' && k !== 'criteria'))).toEqual({ Id: '1', db: '2', archive: '10', rpp: '10' });
    expect(criteriaOf(app.here())).toEqual([
      { ID: 101, VAL: 'budget' },
      { ID: 108, VAL: 'budget' },
      { ID: 102, VAL: '-123' },
      { ID: 103, MVAL: ['2024-01-02', ''] },
      { ID: 104, VAL: '12.50' },
      { ID: 107, VAL: 'quarterly report' },
    ]);
  });

  it('offers the fixed list as a drop-down and the type-ahead list up to 100 suggestions', async () => {
    const app = renderSearch('/view?db=2', searchServer());
    await screen.findByLabelText('Department');
    await waitFor(() => expect(optionsOf('Department')).toEqual(['', 'Finance', 'Sales', 'Legal']));
    const dept = screen.getByLabelText('Department') as HTMLSelectElement;
    expect(dept.tagName).toBe('SELECT');
    fireEvent.change(dept, { target: { value: 'Sales' } });

    fireEvent.focus(input('Customer'));
    await waitFor(() => expect(screen.getByTestId('suggestions-p105').querySelectorAll('option')).toHaveLength(100));
    type('Customer', 'customer 12');
    await waitFor(() => expect(screen.getByTestId('suggestions-p105').querySelectorAll('option')).toHaveLength(10));
    expect(app.calls.some((c) => c.pathname === '/api/dbs/2/lists/8' && c.searchParams.get('index') === 'customer 12')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(input('Customer').value).toBe('');
    expect(dept.value).toBe('');
  });

  it('fills a dynamic list from the ListF1/ListF2 prompts and clears a value no longer listed; multi-value rows grow', async () => {
    const app = renderSearch('/view?db=2&search=2', searchServer());
    await screen.findByLabelText('City');
    await waitFor(() => expect(optionsOf('City')).toEqual(['', 'Paris', 'Lyon', 'Berlin']));
    const city = screen.getByLabelText('City') as HTMLSelectElement;
    type('Country', 'France');
    await waitFor(() => expect(optionsOf('City')).toEqual(['', 'Paris', 'Lyon']));
    fireEvent.change(city, { target: { value: 'Lyon' } });
    type('Region', 'IDF');
    await waitFor(() => expect(optionsOf('City')).toEqual(['', 'Paris']));
    expect(city.value).toBe('');
    const asked = app.calls.filter((c) => c.pathname === '/api/indexes').at(-1)!;
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ database: '2', Field: '23', Filter1: 'France', Filter2: 'IDF', Token: 'token-of-user-0123456789' });
    fireEvent.change(city, { target: { value: 'Paris' } });

    type('Tag', 'red');
    type('Tag (2)', 'blue');
    expect(input('Tag (3)').value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Tag' }));
    expect(input('Tag').value).toBe('blue');
    // IsEmpty needs no value and is ticked by default, as the server applies it without criteria.
    expect((screen.getByRole('checkbox', { name: 'Without notes' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(app.here()).toMatch(/^\/results\/h-corr\?Id=2&db=2&archive=20&/));
    expect(criteriaOf(app.here())).toEqual([
      { ID: 201, VAL: 'France' },
      { ID: 202, VAL: 'IDF' },
      { ID: 203, VAL: 'Paris' },
      { ID: 204, MVAL: ['blue'] },
      { ID: 205 },
    ]);
  });

  it('reopens a search with the criteria filled in (refine search)', async () => {
    const criteria = [{ ID: 101, VAL: 'refined' }, { ID: 103, MVAL: ['2024-03-04', '2024-05-06'] }, { ID: 106, VAL: 'Legal' }];
    const app = renderSearch(`/view?db=2&search=1&criteria=${encodeURIComponent(JSON.stringify(criteria))}&rpp=50`, searchServer());
    expect((await screen.findByLabelText('Title')) as HTMLInputElement).toMatchObject({ value: 'refined' });
    expect(input('Document Date: from').value).toBe('03/04/2024');
    expect(input('Document Date: to').value).toBe('05/06/2024');
    expect(input('Records per page').value).toBe('50');
    await waitFor(() => expect((screen.getByLabelText('Department') as HTMLSelectElement).value).toBe('Legal'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(app.here()).toMatch(/^\/results\//));
    expect(criteriaOf(app.here())).toEqual([{ ID: 101, VAL: 'refined' }, { ID: 108, VAL: 'refined' }, { ID: 103, MVAL: ['2024-03-04', '2024-05-06'] }, { ID: 106, VAL: 'Legal' }]);
    expect(new URL(app.here(), 'http://x').searchParams.get('rpp')).toBe('50');
  });

  it('with the setting on, clicking the default search runs it', async () => {
    await writeLocalSettings(LocalSettings.parse({ autoRunDefaultSearchOnClick: true }));
    const app = renderSearch('/view?db=2&search=2', searchServer());
    await screen.findByLabelText('Country');
    fireEvent.click(screen.getByRole('button', { name: 'All Invoices' }));
    await waitFor(() => expect(app.here()).toMatch(/^\/results\/h-all\?Id=1&db=2&archive=10&criteria=%5B%5D&rpp=10&time=\d+$/));
  });

  it('offline, a search seen before opens from the cache; a list never fetched becomes a text box with a hint', async () => {
    const qc = createQueryClient();
    qc.setQueryData(['search', 'list', 'user', 2], SEARCHES);
    qc.setQueryData(['search', 'one', 'user', 2, 1], DETAILS[1]);
    onlineManager.setOnline(false);
    const app = renderSearch('/view?db=2', () => {
      throw new TypeError('offline');
    }, qc);
    const dept = await screen.findByLabelText('Department');
    expect(dept.tagName).toBe('INPUT');
    expect(screen.getAllByText('Offline: the list of values is not available on this device. Type the value.').length).toBeGreaterThan(0);
    type('Department', 'Sales');
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(app.here()).toMatch(/^\/results\/h-all\?/));
    expect(criteriaOf(app.here())).toEqual([{ ID: 106, VAL: 'Sales' }]);
  });
});
