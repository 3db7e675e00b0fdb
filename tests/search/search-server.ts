import { jsonResponse } from '../api/fake-fetch';
import { fakeServer } from '../app/fake-server';

/** The search calls of the contract, over the foundation's fake server (database 2). */
export const SEARCHES = [
  { Id: 1, Name: 'All Invoices', Hash: 'h-all', Parent: 0, Archives: [10, 11], Props: 0, Settings: 4 | 8 },
  { Id: 2, Name: 'Correspondence', Hash: 'h-corr', Parent: 0, Archives: [20], Props: 0, Settings: 4 },
  { Id: 3, Name: 'Maintenance (hidden)', Hash: 'h-hidden', Parent: 0, Archives: [10], Props: 0, Settings: 0 },
];

const detailItem = (o: Record<string, unknown>) => ({ ListID: 0, Prop: 0, Mask: null, VAL: null, MVAL: null, Condition: 'Contains', ...o });

export const DETAILS: Record<number, unknown> = {
  1: {
    ...SEARCHES[0],
    Detail: [
      detailItem({ ID: 101, FID: 1, Prompt: 'Title', Type: 1 }),
      detailItem({ ID: 102, FID: 2, Prompt: 'Invoice Number', Type: 2, Condition: 'Equals' }),
      detailItem({ ID: 103, FID: 3, Prompt: 'Document Date', Type: 3, Condition: 'Range', MVAL: ['', ''] }),
      detailItem({ ID: 104, FID: 4, Prompt: 'Amount', Type: 4, Condition: 'Equals' }),
      detailItem({ ID: 105, FID: 5, Prompt: 'Customer', Type: 1, ListID: 8 }),
      detailItem({ ID: 106, FID: 6, Prompt: 'Department', Type: 1, Condition: 'Equals', ListID: 7, Prop: 64 }),
      detailItem({ ID: 107, FID: 0, Prompt: '', Type: 0 }),
      detailItem({ ID: 108, FID: 9, Prompt: 'Title', Type: 1 }),
    ],
    ArchiveList: [{ Id: 10, Name: 'Invoices', Parent: 0, Props: 0, Permissions: 1 }, { Id: 11, Name: 'Paid', Parent: 10, Props: 0, Permissions: 1 }],
    Tabs: [],
    StatusField: null,
  },
  2: {
    ...SEARCHES[1],
    Detail: [
      detailItem({ ID: 201, FID: 21, Prompt: 'Country', Type: 1, Condition: 'Equals' }),
      detailItem({ ID: 202, FID: 22, Prompt: 'Region', Type: 1, Condition: 'Equals' }),
      detailItem({ ID: 203, FID: 23, Prompt: 'City', Type: 1, Condition: 'Equals', ListID: 9, Prop: 128 }),
      detailItem({ ID: 204, FID: 24, Prompt: 'Tag', Type: 1, Condition: 'Equals', Prop: 32 }),
      detailItem({ ID: 205, FID: 25, Prompt: 'Without notes', Type: 1, Condition: 'IsEmpty' }),
    ],
    ArchiveList: [{ Id: 20, Name: 'Correspondence', Parent: 0, Props: 0, Permissions: 1 }],
    Tabs: [],
    StatusField: null,
  },
};

const CITIES: [string, string, string][] = [
  ['Paris', 'France', 'IDF'],
  ['Lyon', 'France', 'ARA'],
  ['Berlin', 'Germany', 'BE'],
];
const CUSTOMERS = Array.from({ length: 150 }, (_, i) => `Customer ${String(i).padStart(3, '0')}`);

export interface SearchServerOptions {
  searches?: unknown[];
}

export function searchServer(o: SearchServerOptions = {}) {
  const base = fakeServer();
  return (url: URL, init?: RequestInit): Response => {
    const p = url.pathname;
    if (p === '/api/dbs/2/searches') return jsonResponse(o.searches ?? SEARCHES);
    const one = /^\/api\/dbs\/2\/searches\/(\d+)$/.exec(p);
    if (one) return DETAILS[Number(one[1])] ? jsonResponse(DETAILS[Number(one[1])]) : jsonResponse({ Message: 'no such search' }, { status: 404 });
    if (p === '/api/dbs/2/lists/7') return jsonResponse({ Items: ['Finance', 'Sales', 'Legal'] });
    if (p === '/api/dbs/2/lists/8') {
      const index = (url.searchParams.get('index') ?? '').toLowerCase();
      return jsonResponse({ Items: CUSTOMERS.filter((c) => c.toLowerCase().includes(index)) });
    }
    if (p === '/api/dbs/2/archives/20' && url.searchParams.get('type') === 'fields') {
      return jsonResponse([
        { ID: 21, Name: 'Country', Type: 1 },
        { ID: 22, Name: 'Region', Type: 1 },
        { ID: 23, Name: 'City', Type: 1, Prop: 128, List: 9, ListF1: 21, ListF2: 22 },
      ]);
    }
    if (p === '/api/indexes') {
      const f1 = url.searchParams.get('Filter1') ?? '';
      const f2 = url.searchParams.get('Filter2') ?? '';
      return jsonResponse({ Items: CITIES.filter(([, c, r]) => (!f1 || c === f1) && (!f2 || r === f2)).map(([city]) => city) });
    }
    return base(url, init);
  };
}
