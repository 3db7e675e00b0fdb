/**
 * Documents of a test's own, for the tests of what is done to documents (copy, move, delete, export):
 * copies of Correspondence documents in Incoming, titled `${mark} 01` ..., made through the API (the
 * originals' titles are put back), found by the Content Search's Title prompt, so no test sees
 * another's documents.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { A, F, S, expect, gridRow, type Doc } from './grid-support';
import { getSearch, mustPut, promptId, searchDocs, snapshot, uniqueMark } from './editing-support';

export interface JobAnswer {
  Id: number;
  Kind: string;
  Key?: string | null;
  State: string;
  Count: number;
  Succeeded: number;
  Failed: number;
}

/** The user's jobs (GET api/jobs). */
export async function jobs(request: APIRequestContext, token: string): Promise<JobAnswer[]> {
  const res = await request.get('/api/jobs', { params: { token } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as JobAnswer[];
}

export interface Fixture {
  mark: string;
  /** The Content Search's hash and Title prompt criteria that find the marked copies. */
  hash: string;
  criteria: { ID: number; VAL: string }[];
  /** The marked copies in Incoming, titled `${mark} 01` ... */
  docs: Doc[];
  /** The fields of the copies' search answer. */
  fields: { ID: number; Name: string }[];
}

/**
 * Copies `originals` (Correspondence documents) to Incoming as one copy job, each copy titled
 * `${mark} 01` ... in their order, and puts the originals' titles back. Answers the mark.
 */
export async function copyMarked(request: APIRequestContext, token: string, originals: readonly Doc[], prefix: string): Promise<string> {
  const mark = uniqueMark(prefix);
  const restore = originals.map((d) => ({ d, fields: snapshot(d, [F.title]) }));
  try {
    for (const [i, d] of originals.entries()) await mustPut(request, token, d, [{ ID: F.title, VAL: `${mark} ${String(i + 1).padStart(2, '0')}` }]);
    let jobId = 0;
    for (const d of originals) {
      const res = await request.get(`/api/dbs/1/archives/${A.correspondence}/documents/${d.Id}/Copy`, {
        params: { token, SecureId: d.Hash, Job: mark, Count: originals.length, DestinationArchive: A.incoming },
      });
      expect(res.status(), await res.text()).toBe(200);
      jobId = ((await res.json()) as { JobId: number }).JobId;
    }
    await expect.poll(async () => (await jobs(request, token)).find((j) => j.Id === jobId)?.State, { timeout: 30_000, message: 'the fixture copy job ends' }).toBe('done');
  } finally {
    for (const r of restore) await mustPut(request, token, r.d, r.fields);
  }
  return mark;
}

/** The first `n` Correspondence documents in the given Title order (its own, not its sub-archives'). */
export async function correspondence(request: APIRequestContext, token: string, n: number, order: 'asc' | 'desc' = 'asc'): Promise<Doc[]> {
  const originals = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.correspondence, rpp: 100, sort: `${F.title}:${order}` })).Docs
    // Of Correspondence itself: its sub-archives' documents show in its search too.
    .filter((d) => d.ArchiveId === A.correspondence)
    .slice(0, n);
  expect(originals, 'Correspondence documents to copy').toHaveLength(n);
  return originals;
}

/** `n` marked copies in Incoming, made by one copy job. */
export async function makeDocuments(request: APIRequestContext, token: string, n: number, prefix: string): Promise<Fixture> {
  const search = await getSearch(request, token, 1, S.contentSearch);
  const mark = await copyMarked(request, token, await correspondence(request, token, n), prefix);
  const criteria = [{ ID: promptId(search, 'Title'), VAL: mark }];
  const copies = (await searchDocs(request, token, { searchId: S.contentSearch, archiveId: A.incoming, criteria, rpp: 50 })) as Awaited<ReturnType<typeof searchDocs>> & { Fields: { ID: number; Name: string }[] };
  expect(copies.Docs, 'the marked copies in Incoming').toHaveLength(n);
  return { mark, hash: search.Hash, criteria, docs: copies.Docs, fields: copies.Fields };
}

/** Opens the results of the marked documents in an archive (Incoming unless said), `rpp` a page, in the given sort. */
export async function openMarked(page: Page, f: Pick<Fixture, 'hash' | 'criteria'>, rpp: number, opts: { archiveId?: number; sort?: string } = {}): Promise<void> {
  const params = new URLSearchParams({ Id: String(S.contentSearch), db: '1', archive: String(opts.archiveId ?? A.incoming), criteria: JSON.stringify(f.criteria), rpp: String(rpp) });
  if (opts.sort) params.set('sort', opts.sort);
  await page.goto(`/results/${f.hash}?${params.toString()}`);
  await expect(gridRow(page, 0)).toBeVisible();
}
