/**
 * Saving a file the app fetched, the two ways browsers allow (no state kept):
 * - File System Access (Chromium on desktops): the user picks where (showSaveFilePicker) and the
 *   response body is piped into the file chunk by chunk, so a large file never sits in memory;
 * - elsewhere (Firefox, Safari, iPadOS, Android) a Blob handed to the browser's downloads through an
 *   <a download>. That costs the file's size in memory until the object URL is revoked; streaming to
 *   disk there would need a service worker answering a made-up URL with the body, which would also put
 *   the download on a URL the token must not be in.
 * Shared by the documents feature (single download) and whatever else saves a fetched file.
 */

// TypeScript's DOM library lacks the pickers: the parts used here, typed here.
export interface WritableFileLike extends WritableStream<Uint8Array> {
  abort(reason?: unknown): Promise<void>;
}
export interface FileHandleLike {
  createWritable(): Promise<WritableFileLike>;
  remove?: () => Promise<void>;
}
export interface SavePickerWindow {
  showSaveFilePicker?: (options: { suggestedName: string; types?: { description?: string; accept: Record<string, string[]> }[] }) => Promise<FileHandleLike>;
}

export type SaveOutcome = 'saved' | 'downloaded' | 'cancelled';

const pickerWindow = () => globalThis as unknown as SavePickerWindow;

/** Whether this browser lets the user pick a file to write into. */
export function hasSavePicker(w: SavePickerWindow = pickerWindow()): boolean {
  return typeof w.showSaveFilePicker === 'function';
}

const extensionOf = (name: string) => /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0].toLowerCase();

/**
 * Asks where to save `name`: the handle, null when the user closed the picker, or 'no-activation' when
 * the browser refused to open it because the click's user activation had run out (the caller then
 * downloads instead). Other failures are thrown.
 */
export async function pickSaveFile(name: string, type: string, w: SavePickerWindow = pickerWindow()): Promise<FileHandleLike | null | 'no-activation'> {
  const ext = extensionOf(name);
  // A type filter needs a valid MIME type and extension; without one the picker accepts any name.
  const types = ext && /^[\w.+-]+\/[\w.+-]+$/.test(type) ? [{ accept: { [type]: [ext] } }] : undefined;
  try {
    return await w.showSaveFilePicker!({ suggestedName: name, ...(types ? { types } : {}) });
  } catch (e) {
    const n = (e as { name?: string })?.name;
    if (n === 'AbortError') return null;
    if (n === 'NotAllowedError' || n === 'SecurityError') return 'no-activation';
    throw e;
  }
}

/** Streams `body` into the picked file; on failure the half-written file is removed and the error thrown. */
export async function writeToHandle(handle: FileHandleLike, body: ReadableStream<Uint8Array>): Promise<void> {
  const writable = await handle.createWritable();
  try {
    await body.pipeTo(writable);
  } catch (e) {
    await writable.abort().catch(() => undefined);
    await handle.remove?.().catch(() => undefined);
    throw e;
  }
}

/** Hands a Blob to the browser's downloads under `name` (see the file comment for its memory cost). */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the Blob once the click's download started; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves a fetched response as `name`: into a file the user picks where the browser can, streamed;
 * otherwise (or when the picker may no longer open) as a download. 'cancelled' when the user closed
 * the picker (the response is then discarded).
 */
export async function saveResponse(res: Response, name: string, type: string, w: SavePickerWindow = pickerWindow()): Promise<SaveOutcome> {
  if (hasSavePicker(w) && res.body) {
    const handle = await pickSaveFile(name, type, w);
    if (handle === null) {
      await res.body.cancel().catch(() => undefined);
      return 'cancelled';
    }
    if (handle !== 'no-activation') {
      await writeToHandle(handle, res.body);
      return 'saved';
    }
  }
  downloadBlob(await res.blob(), name);
  return 'downloaded';
}
