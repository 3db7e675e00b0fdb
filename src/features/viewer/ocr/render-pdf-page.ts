/**
 * A PDF page drawn to a PNG for the device's OCR (a pinned PDF read with no connection), at the width
 * the server recognises PDF pages at (server/services/words.ts OCR_PDF_WIDTH), so positions and
 * results match the server's.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

export const DEVICE_OCR_PDF_WIDTH = 1600;

export async function renderPdfPageImage(pdf: PDFDocumentProxy, pageNo: number, width = DEVICE_OCR_PDF_WIDTH): Promise<Blob> {
  const page = await pdf.getPage(pageNo);
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: width / base.width });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  await page.render({ canvas, viewport, background: '#ffffff' }).promise;
  return new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('page image not made'))), 'image/png'));
}
