/**
 * pdf.js's worker (parsing, fonts, page operator lists), bundled from pdfjs-dist into the app's own
 * build, never fetched from a CDN: the Content-Security-Policy allows workers from 'self' only. The
 * module sets itself up on import and talks to the page's pdf.js over postMessage; the viewer
 * (src/features/viewer/pdf-engine.ts) starts it and hands it to pdf.js as its workerPort.
 */
import 'pdfjs-dist/build/pdf.worker.min.mjs';
