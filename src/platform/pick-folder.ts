/**
 * Asking for a folder to write into (File System Access API: Chromium on desktops). In the shell, not
 * in the lazily loaded saving code, because the picker must open while the click's user activation
 * lasts; the handle is not kept anywhere (no permission remembered across sessions).
 */
// TypeScript's DOM library lacks parts of the File System Access API: the parts used here, typed here.
export interface WritableLike {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}
export interface FileEntryLike {
  createWritable(): Promise<WritableLike>;
}
export interface DirectoryLike {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<DirectoryLike>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FileEntryLike>;
}


export interface FolderPickerWindow {
  showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<DirectoryLike & { name: string }>;
}

const pickerWindow = () => globalThis as unknown as FolderPickerWindow;

/** Whether this browser lets the user pick a folder to write into. */
export function hasFolderPicker(w: FolderPickerWindow = pickerWindow()): boolean {
  return typeof w.showDirectoryPicker === 'function';
}

/** The picked folder, or null when the user closed the picker. Other failures (NotAllowedError ...) are thrown. */
export async function pickFolder(w: FolderPickerWindow = pickerWindow()): Promise<(DirectoryLike & { name: string }) | null> {
  try {
    return await w.showDirectoryPicker!({ mode: 'readwrite' });
  } catch (e) {
    if ((e as { name?: string })?.name === 'AbortError') return null;
    throw e;
  }
}
