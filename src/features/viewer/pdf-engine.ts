/**
 * pdf.js for the viewer, loaded with the viewer's chunk only. Its worker is the app's own bundled
 * module (workers/pdf.worker.ts), started once and handed to pdf.js as its port. Options for the
 * Content-Security-Policy (no eval): isEvalSupported false keeps pdf.js from compiling PostScript
 * functions with new Function (and from probing whether it may). Of the standard 14 fonts a PDF may
 * use without embedding them, pdf.js draws the Latin ones with the system's fonts and Symbol and
 * ZapfDingbats (which have no system substitute) from its own font data, served by the app
 * (vite.config.ts pdfjsStandardFonts).
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
  // The standard fonts' data from the app's own origin (vite.config.ts pdfjsStandardFonts); absolute,
  // as pdf.js's worker fetches it from its own address.
  const standardFontDataUrl = new URL(`${import.meta.env.BASE_URL}pdfjs/standard_fonts/`, window.location.href).href;
  return lib.getDocument({ data: bytes, isEvalSupported: false, standardFontDataUrl, enableXfa: false, verbosity: 0 }).promise;
}
