/**
 * What the viewer's browser tests share: the server's word on documents (type, pages) through the
 * viewer session call, and whether a page was drawn (ink on its canvas or image).
 */
import type { APIRequestContext, Locator } from '@playwright/test';
import { A, expect, type Doc } from './grid-support';

export interface SessionDoc {
  Id: number;
  Archive: number;
  Hash: string;
  Available: boolean;
  FileType?: string | null;
  Pages?: number;
}

/** What the server says of each document (type, pages), through the viewer session call itself. */
export async function describeDocs(request: APIRequestContext, token: string, docs: Doc[]): Promise<SessionDoc[]> {
  const made = await request.post('/api/session', {
    headers: { 'Auth-Token': token },
    data: { Database: 1, Documents: docs.map((d) => ({ Archive: d.ArchiveId ?? A.invoices, Id: d.Id, Hash: d.Hash })) },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { Id } = (await made.json()) as { Id: string };
  const got = await request.get(`/api/session/${Id}`, { headers: { 'Auth-Token': token } });
  expect(got.status()).toBe(200);
  return ((await got.json()) as { Documents: SessionDoc[] }).Documents;
}

/** Share of pixels of the page's canvas (or image) that are not white: > 0 means something was drawn. */
export async function ink(target: Locator): Promise<number> {
  return target.evaluate((el) => {
    let source: HTMLCanvasElement;
    if (el instanceof HTMLCanvasElement) source = el;
    else {
      const img = el as HTMLImageElement;
      source = document.createElement('canvas');
      source.width = img.naturalWidth;
      source.height = img.naturalHeight;
      source.getContext('2d')!.drawImage(img, 0, 0);
    }
    const { data } = source.getContext('2d')!.getImageData(0, 0, source.width, source.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) dark++;
    return dark / (data.length / 4);
  });
}
