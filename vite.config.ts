import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { DeviceOcrFile } from './src/api/words';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build over 1 KB, at the
 * highest levels (too slow per request, free at build time); the server sends the copy the browser
 * accepts (server/routes/static.ts). Runs after vite-plugin-pwa has written the service worker, so
 * service-worker.js gets its copies too. Not config.json (a deployment edits it in place: a copy
 * would go stale) nor languages/ (served by their own route), nor tesseract/ (tesseractAssets writes
 * its gzip copies itself: brotli at this level takes ~12 s per 4 MB core).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'archive:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile() && /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/.test(e.name))
          .map((e) => join(e.parentPath, e.name))
          .filter((f) => !/^(config\.json$|languages[\\/]|tesseract[\\/])/.test(relative(outDir, f)));
        await Promise.all(
          files.map(async (file) => {
            const data = await readFile(file);
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              promisify(brotliCompress)(data, {
                params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
              }),
              promisify(gzip)(data, { level: zlib.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < data.length) await writeFile(`${file}.br`, br);
            if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}

/**
 * pdf.js's data for the standard PDF fonts (a PDF may name them without embedding them; in a browser
 * pdf.js needs it for Symbol and ZapfDingbats, the others have system substitutes): copied from
 * pdfjs-dist into the build as /pdfjs/standard_fonts/, and served from there in `vite dev`, so the
 * viewer (src/features/viewer/pdf-engine.ts) reads it from the app's own origin. Not precached (not
 * in globPatterns): fetched the first time a PDF needs it.
 */
function pdfjsStandardFonts(): Plugin {
  const dir = fileURLToPath(new URL('./node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const prefix = '/pdfjs/standard_fonts/';
  return {
    name: 'archive:pdfjs-standard-fonts',
    configureServer(server) {
      server.middlewares.use(prefix, (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        if (!/^[\w.-]+\.(pfb|ttf)$/.test(name)) return next();
        readFile(join(dir, name)).then(
          (data) => {
            res.setHeader('Content-Type', 'application/octet-stream');
            res.end(data);
          },
          () => next(),
        );
      });
    },
    async generateBundle() {
      for (const name of await readdir(dir)) {
        if (/\.(pfb|ttf)$/.test(name)) this.emitFile({ type: 'asset', fileName: `pdfjs/standard_fonts/${name}`, source: await readFile(join(dir, name)) });
      }
    },
  };
}

/**
 * OCR on the device (workers/ocr.worker.ts) from the app's own origin, never a CDN: tesseract.js's
 * worker script, its LSTM-only wasm cores (plain, SIMD, relaxed SIMD: tesseract picks what the device
 * runs) and the English data (@tesseract.js-data/eng 4.0.0_best_int) copied into the build as
 * /tesseract/{worker.min.js, core/*.wasm.js, lang/eng.traineddata.gz}, and served from there in `vite
 * dev`. The scripts get a gzip copy (the server sends it); the data is gzip already. Not precached
 * (globIgnores): about 14 MB, put in the service worker's `ocr` cache when a document is kept
 * offline (or when a device first reads a page itself).
 */
function tesseractAssets(): Plugin {
  const mod = (p: string) => fileURLToPath(new URL(`./node_modules/${p}`, import.meta.url));
  // Exactly the files the app names (src/api/words.ts DEVICE_OCR_FILES, which Keep offline caches).
  const files: Record<string, string> = {
    'worker.min.js': mod('tesseract.js/dist/worker.min.js'),
    'core/tesseract-core-lstm.wasm.js': mod('tesseract.js-core/tesseract-core-lstm.wasm.js'),
    'core/tesseract-core-simd-lstm.wasm.js': mod('tesseract.js-core/tesseract-core-simd-lstm.wasm.js'),
    'core/tesseract-core-relaxedsimd-lstm.wasm.js': mod('tesseract.js-core/tesseract-core-relaxedsimd-lstm.wasm.js'),
    'lang/eng.traineddata.gz': mod('@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'),
  } satisfies Record<DeviceOcrFile, string>;
  const prefix = '/tesseract/';
  return {
    name: 'archive:tesseract-assets',
    configureServer(server) {
      server.middlewares.use(prefix, (req, res, next) => {
        const file = files[(req.url ?? '').replace(/^\//, '').split('?')[0] ?? ''];
        if (!file) return next();
        readFile(file).then(
          (data) => {
            res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
            res.end(data);
          },
          () => next(),
        );
      });
    },
    async generateBundle() {
      for (const [name, file] of Object.entries(files)) {
        const data = await readFile(file);
        this.emitFile({ type: 'asset', fileName: `tesseract/${name}`, source: data });
        if (name.endsWith('.js')) this.emitFile({ type: 'asset', fileName: `tesseract/${name}.gz`, source: gzipSync(data, { level: zlib.Z_BEST_COMPRESSION }) });
      }
    },
  };
}

// The app is served by the reference server (server/) from dist/, API under /api/.
// In `npm run dev` Vite proxies /api and /languages to a server started with `npm run server`.
export default defineConfig({
  plugins: [
    react(),
    pdfjsStandardFonts(),
    tesseractAssets(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'service-worker.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false, // public/manifest.webmanifest is the source of truth
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,json}'],
        globIgnores: ['languages/**', 'config.json', 'tesseract/**'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/languages': 'http://127.0.0.1:8080',
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Browsers without <link rel="modulepreload"> still load every module, only without the head
    // start; the polyfill would cost every user first-screen bytes (docs/development.md "Budgets").
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (the shell) in one chunk: split across several
        // common chunks it costs ~3 KB gzip of import/export glue. Lazy chunks import from it.
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
});
