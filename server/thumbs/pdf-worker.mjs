// Renders PDF pages to PNG in a worker thread (pdfjs-dist legacy build + @napi-rs/canvas), so a
// render never blocks the HTTP thread. Plain JavaScript so it starts the same way under tsx,
// vitest and node. Protocol: { id, bytes: Uint8Array, page: 1-based, width, height, maxSide }
//   -> { id, ok: true, png: Uint8Array, pages } | { id, ok: false, error, code? }
// code 'PAGE': the file has no such page; 'UNREADABLE': pdf.js cannot read the file or draw the page.
// The page is scaled to fit inside width x height and centred on a white canvas of exactly that
// size; width or height 0 follows the page's aspect ratio, and neither side passes maxSide (a page
// far taller than wide would otherwise make the side that follows it huge). workerData.maxImageSize:
// images inside a page larger than this many pixels are not decoded (the server's page budget).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('pdfjs-dist/package.json'));
const pdfjs = await import(pathToFileURL(join(root, 'legacy/build/pdf.mjs')).href);
pdfjs.GlobalWorkerOptions.workerSrc = pathToFileURL(join(root, 'legacy/build/pdf.worker.mjs')).href;
const dir = (name) => join(root, name) + '/';
const docOptions = {
  standardFontDataUrl: dir('standard_fonts'),
  cMapUrl: dir('cmaps'),
  cMapPacked: true,
  wasmUrl: dir('wasm'),
  iccUrl: dir('iccs'),
  isEvalSupported: false,
  useSystemFonts: false,
  disableFontFace: true,
  verbosity: 0,
  maxImageSize: workerData?.maxImageSize ?? -1,
};

/** The canvas for a page of pw x ph points (the thumbnailer's fitBox, which TIFF pages use). */
function fitBox(pw, ph, width, height, maxSide = Infinity) {
  if (!width && !height) [width, height] = [pw, ph];
  if (!width) width = (pw * height) / ph;
  if (!height) height = (ph * width) / pw;
  const over = Math.max(1, width / maxSide, height / maxSide);
  return { width: Math.max(1, Math.round(width / over)), height: Math.max(1, Math.round(height / over)) };
}

const unreadable = (e) => ({ ok: false, error: `The PDF file cannot be read: ${e && e.message ? e.message : e}`, code: 'UNREADABLE' });

async function render({ bytes, page, width, height, maxSide }) {
  let doc;
  try {
    doc = await pdfjs.getDocument({ ...docOptions, data: bytes }).promise;
  } catch (e) {
    return unreadable(e);
  }
  try {
    if (page < 1 || page > doc.numPages) return { ok: false, error: `page ${page} of ${doc.numPages}`, code: 'PAGE' };
    const p = await doc.getPage(page);
    const base = p.getViewport({ scale: 1 });
    ({ width, height } = fitBox(Math.max(1, base.width), Math.max(1, base.height), width, height, maxSide));
    const scale = Math.min(width / base.width, height / base.height);
    const viewport = p.getViewport({ scale });
    const w = Math.max(1, Math.round(viewport.width));
    const h = Math.max(1, Math.round(viewport.height));
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    const dx = Math.floor((width - w) / 2);
    const dy = Math.floor((height - h) / 2);
    await p.render({ canvas, canvasContext: ctx, viewport, transform: [1, 0, 0, 1, dx, dy], background: '#ffffff' }).promise;
    const png = await canvas.encode('png');
    p.cleanup();
    return { ok: true, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), pages: doc.numPages };
  } catch (e) {
    return unreadable(e);
  } finally {
    await doc.destroy();
  }
}

parentPort.on('message', async (msg) => {
  try {
    const out = await render(msg);
    parentPort.postMessage({ id: msg.id, ...out }, out.png ? [out.png.buffer] : []);
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String(e && e.message ? e.message : e) });
  }
});
parentPort.postMessage({ id: 0, ok: true });
