import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportNote } from '../../src/api/export';
import { configureHttp } from '../../src/api/http';
import { DownloadError, fetchExport, problemOfStatus, saveExport } from '../../src/features/export/download-export';

const note: ExportNote = { JobId: 42, FileName: 'export-42.zip', Size: 6, Format: 'zip', Expires: '2030-01-01T00:00:00Z' };

function serve(answer: () => Response | Promise<Response>) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  configureHttp({ baseUrl: () => 'http://test/', token: () => 'tok-9' });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
    return answer();
  });
  return calls;
}

/** A File System Access stand-in: the picked file collects what is written into it. */
function picker(opts: { cancel?: boolean } = {}) {
  const written: Uint8Array[] = [];
  let removed = false;
  let picked = 0;
  const w = {
    showSaveFilePicker: async () => {
      picked++;
      if (opts.cancel) throw Object.assign(new Error('closed'), { name: 'AbortError' });
      return {
        createWritable: async () =>
          Object.assign(new WritableStream<Uint8Array>({ write: (c) => void written.push(c) }), { abort: async () => undefined }),
        remove: async () => void (removed = true),
      };
    },
  };
  return { w, written, removed: () => removed, picked: () => picked };
}

afterEach(() => vi.unstubAllGlobals());

describe('fetching a finished export', () => {
  it('asks GET api/dbs/{db}/export?jobid with the token in the header, never in the URL', async () => {
    const calls = serve(() => new Response('zip!'));
    const res = await fetchExport(3, 42);
    expect(await res.text()).toBe('zip!');
    expect(calls[0]!.url).toBe('http://test/api/dbs/3/export?jobid=42');
    expect(calls[0]!.url).not.toContain('tok-9');
    expect(calls[0]!.headers['Auth-Token']).toBe('tok-9');
  });

  it('409 still being prepared, 410 expired, 404 gone, a lost connection offline', async () => {
    expect(problemOfStatus(409)).toBe('ERROR_EXPORT_NOT_READY');
    expect(problemOfStatus(410)).toBe('ERROR_EXPORT_EXPIRED');
    expect(problemOfStatus(404)).toBe('EXPORT_DOWNLOAD_GONE');
    expect(problemOfStatus(500)).toBe('EXPORT_DOWNLOAD_FAILED');
    serve(() => new Response('{"Message":"gone","Key":"ERROR_EXPORT_EXPIRED"}', { status: 410 }));
    await expect(fetchExport(3, 42)).rejects.toMatchObject({ problem: 'ERROR_EXPORT_EXPIRED', status: 410 });
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchExport(3, 42)).rejects.toBeInstanceOf(DownloadError);
    await expect(fetchExport(3, 42)).rejects.toMatchObject({ problem: 'EXPORT_DOWNLOAD_OFFLINE' });
  });
});

describe('saving it where the browser has the File System Access API', () => {
  it('streams the body into the picked file chunk by chunk', async () => {
    const chunks = ['PK', '\u0003\u0004', 'ab'];
    serve(() => new Response(new ReadableStream({ pull(c) { const x = chunks.shift(); if (x === undefined) c.close(); else c.enqueue(new TextEncoder().encode(x)); } })));
    const p = picker();
    expect(await saveExport(3, note, p.w)).toBe('saved');
    expect(p.written.length).toBeGreaterThan(1);
    expect(new TextDecoder().decode(Buffer.concat(p.written))).toBe('PK\u0003\u0004ab');
  });

  it('a closed picker saves nothing; a refused download removes the picked file and says why', async () => {
    serve(() => new Response('zip'));
    expect(await saveExport(3, note, picker({ cancel: true }).w)).toBe('cancelled');
    serve(() => new Response('{"Message":"not yet"}', { status: 409 }));
    const p = picker();
    await expect(saveExport(3, note, p.w)).rejects.toMatchObject({ problem: 'ERROR_EXPORT_NOT_READY' });
    expect(p.picked()).toBe(1);
    expect(p.removed()).toBe(true);
    expect(p.written).toHaveLength(0);
  });
});
