/**
 * The check of a file when its upload finishes (services/upload.ts), before it enters an inbox or an
 * import's staging area (issue 20): what its first bytes say it is, whether it opens as that, how many
 * pages it has and whether each page fits the page budget (files/page-budget.ts). A file named as a
 * kind the server draws (PDF, TIFF, PNG, JPEG) must be that kind and readable; other files (office
 * documents, text) are kept as they are, one page. Only headers are read: a TIFF's pages from its
 * directories (no pixel is decoded), a PDF by pdf-lib (what merge, burst and rotate open it with).
 */
import { open, readFile, stat } from 'node:fs/promises';
import { imagePage, loadPdf, unreadable } from '../files/page-budget.js';
import { ApiError } from '../http/errors.js';

/** The kinds the server decodes, by the file type names the archive uses (upload.ts fileTypeOf). */
export type DrawnKind = 'PDF' | 'TIF' | 'PNG' | 'JPG';

const KIND_WORDS: Record<DrawnKind, string> = { PDF: 'a PDF file', TIF: 'a TIFF image', PNG: 'a PNG image', JPG: 'a JPEG image' };

/** What the first bytes of a file say it is (null: none of the kinds the server draws). */
export function sniffKind(head: Uint8Array): DrawnKind | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  // A PDF's header may follow a little junk (readers look in the first 1024 bytes).
  if (b.subarray(0, 1024).includes('%PDF-', 0, 'latin1')) return 'PDF';
  const s = b.toString('latin1', 0, 4);
  if (s === 'II*\0' || s === 'MM\0*') return 'TIF';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'PNG';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'JPG';
  return null;
}

const isDrawn = (type: string): type is DrawnKind => type in KIND_WORDS;

/**
 * PDFs are opened to count their pages up to this size (pdf-lib holds the file and its objects in
 * memory); a larger one is checked by its header only and counted as one page until it is read.
 */
export const PDF_CHECK_MAX_BYTES = 64 * 1024 * 1024;

export interface CheckedFile {
  /** The file type it is kept as (the name's; its content's when the name has no extension). */
  type: string;
  pages: number;
}

async function headOf(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Checks the finished upload at `path`, named `name`, of type `nameType` (from its name; 'BIN' when
 * it has no extension). Throws ERROR_FILE_UNREADABLE or ERROR_PAGE_TOO_LARGE (422) for a file to refuse.
 */
export async function checkUploadedFile(path: string, name: string, nameType: string): Promise<CheckedFile> {
  try {
    return await checkFile(path, name, nameType);
  } catch (e) {
    // The refusal names the file: the tray lists several uploads.
    if (e instanceof ApiError && !e.message.startsWith(name)) throw new ApiError(e.status, `${name}: ${e.message}`, e.key);
    throw e;
  }
}

async function checkFile(path: string, name: string, nameType: string): Promise<CheckedFile> {
  const kind = sniffKind(await headOf(path));
  const type = nameType === 'BIN' && kind ? kind : nameType;
  if (!isDrawn(type)) return { type, pages: 1 };
  if (kind !== type) throw unreadable(`${name} is not ${KIND_WORDS[type]}${kind ? ` (its content is ${KIND_WORDS[kind]})` : ''}`);
  if (type === 'PDF') {
    if ((await stat(path)).size > PDF_CHECK_MAX_BYTES) return { type, pages: 1 };
    const pages = (await loadPdf(await readFile(path), { updateMetadata: false })).getPageCount();
    if (pages < 1) throw unreadable(`${name} is a PDF file without pages`);
    return { type, pages };
  }
  const outOfRange = () => unreadable('a page is missing');
  const first = await imagePage(path, 0, outOfRange);
  for (let k = 1; k < first.pages; k++) await imagePage(path, k, outOfRange);
  return { type, pages: first.pages };
}
