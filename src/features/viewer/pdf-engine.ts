/**
 * pdf.js for the viewer, loaded with the viewer's chunk only. Its worker is the app's own bundled
 * module (workers/pdf.worker.ts), started once and handed to pdf.js as its port. Options for the
 * Content-Security-Policy (no eval): isEvalSupported false keeps pdf.js from compiling PostScript
 * functions with new Function (and from probing whether it may). Fonts a PDF does not embed (the
 * standard 14) are drawn with the system's fonts.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

type PdfJs = typeof import('pdfjs-dist');
let loading: Promise<PdfJs> | null = null;

export function pdfjs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist').then((lib) => {
    if (!lib.GlobalWorkerOptions.workerPort) {
      lib.GlobalWorkerOptions.workerPort = new Worker(new URL('../../../workers/pdf.worker.ts', import.meta.url), { type: 'module', name: 'pdf' });
    }
    return lib;
  });
  return loading;
}

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  return lib.getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: true, enableXfa: false, verbosity: 0 }).promise;
}
