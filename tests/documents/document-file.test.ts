/**
 * Single download and Web Share, the parts without a browser: who may, whether the device can share
 * files, which words a failure gets, the name read from Content-Disposition, and saving (picker
 * streamed into the file, cancel, lost activation, download fallback) with stand-ins for the browser's
 * pickers.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/api-error';
import { fileNameFromDisposition } from '../../src/api/document-file';
import { canShareFiles, fileBlockedReason, fileFailure } from '../../src/features/documents/document-file-rules';
import { pickSaveFile, saveResponse, type FileHandleLike, type SavePickerWindow } from '../../src/platform/save-file';
import { contentDisposition } from '../../server/services/document-file';

describe('who may download or share a document', () => {
  it('needs bit 128 (export); unknown rights block nothing; the read-only licence is no reason', () => {
    expect(fileBlockedReason(1 | 512)).toBe('DOCUMENTS_NO_EXPORT_RIGHT');
    expect(fileBlockedReason(1 | 128)).toBeNull();
    expect(fileBlockedReason(null)).toBeNull();
  });
});

describe('Web Share with files', () => {
  it('is offered only where canShare says yes for a file', () => {
    expect(canShareFiles({})).toBe(false);
    expect(canShareFiles({ share: async () => undefined })).toBe(false);
    expect(canShareFiles({ share: async () => undefined, canShare: () => false })).toBe(false);
    expect(canShareFiles({ share: async () => undefined, canShare: (d) => (d.files?.length ?? 0) === 1 })).toBe(true);
    expect(
      canShareFiles({
        share: async () => undefined,
        canShare: () => {
          throw new TypeError('files not supported');
        },
      }),
    ).toBe(false);
  });
});

describe('failure words', () => {
  const http = (status: number, loginRedirect = false) => new ApiError({ kind: 'http', method: 'GET', url: '/x', status, loginRedirect });
  it('offline and lost connections need a connection; 403 and 404 say so; the rest go to the error handler', () => {
    expect(fileFailure(null, false)).toBe('DOCUMENTS_FILE_OFFLINE');
    expect(fileFailure(new ApiError({ kind: 'network', method: 'GET', url: '/x' }))).toBe('DOCUMENTS_FILE_OFFLINE');
    expect(fileFailure(http(403))).toBe('DOCUMENTS_FILE_FORBIDDEN');
    expect(fileFailure(http(404))).toBe('DOCUMENTS_FILE_NOT_FOUND');
    // A session that ended is the error handler's (sign in again), not "you may not".
    expect(fileFailure(http(403, true))).toBeNull();
    expect(fileFailure(http(500))).toBeNull();
    expect(fileFailure(new Error('x'))).toBeNull();
  });
});

describe('the name in Content-Disposition', () => {
  it("reads the server's own header back exactly, whatever the script", () => {
    for (const name of ['Rechnung März.pdf', "l'été (1).tif", 'плата 2026.pdf', 'a;b=c.pdf']) expect(fileNameFromDisposition(contentDisposition(name))).toBe(name);
  });
  it('takes filename* before filename, a plain or quoted filename otherwise, and null without one', () => {
    expect(fileNameFromDisposition(`attachment; filename="fallback.pdf"; filename*=UTF-8''r%C3%A9el.pdf`)).toBe('réel.pdf');
    expect(fileNameFromDisposition(`attachment; filename*=iso-8859-1'en'%E9t%E9.pdf`)).toBe('été.pdf');
    expect(fileNameFromDisposition('attachment; filename="a \\"b\\".pdf"')).toBe('a "b".pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.tif')).toBe('plain.tif');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('saving a fetched file', () => {
  const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  /** A response whose body arrives in two chunks, as a stream. */
  const response = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, 3));
          c.enqueue(bytes.slice(3));
          c.close();
        },
      }),
    );

  it('streams the body into the picked file, chunk by chunk, with the suggested name and type', async () => {
    const chunks: Uint8Array[] = [];
    let asked: unknown;
    const w: SavePickerWindow = {
      showSaveFilePicker: async (o) => {
        asked = o;
        return {
          createWritable: async () => Object.assign(new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) }), { abort: async () => undefined }),
        } as FileHandleLike;
      },
    };
    expect(await saveResponse(response(), 'Rechnung.pdf', 'application/pdf', w)).toBe('saved');
    expect(chunks).toHaveLength(2);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes));
    expect(asked).toEqual({ suggestedName: 'Rechnung.pdf', types: [{ accept: { 'application/pdf': ['.pdf'] } }] });
  });

  it('a closed picker is a cancel; a refused one (the gesture ran out) is told apart from it', async () => {
    const refusing = (name: string): SavePickerWindow => ({ showSaveFilePicker: async () => Promise.reject(Object.assign(new Error(name), { name })) });
    expect(await saveResponse(response(), 'a.pdf', 'application/pdf', refusing('AbortError'))).toBe('cancelled');
    expect(await pickSaveFile('a.pdf', 'application/pdf', refusing('NotAllowedError'))).toBe('no-activation');
    await expect(pickSaveFile('a.pdf', 'application/pdf', refusing('TypeError'))).rejects.toThrow('TypeError');
  });

  it('a failed write removes the half-written file', async () => {
    let removed = false;
    const w: SavePickerWindow = {
      showSaveFilePicker: async () => ({
        createWritable: async () =>
          Object.assign(
            new WritableStream<Uint8Array>({
              write: () => Promise.reject(new Error('disk full')),
            }),
            { abort: async () => undefined },
          ),
        remove: async () => {
          removed = true;
        },
      }),
    };
    await expect(saveResponse(response(), 'a.pdf', 'application/pdf', w)).rejects.toThrow('disk full');
    expect(removed).toBe(true);
  });
});
