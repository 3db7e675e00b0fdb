#!/usr/bin/env node
// First-screen JavaScript, gzip: every script and modulepreload that dist/index.html loads
// (the shell), against the 170 KB budget. Lazy chunks (grid, viewer, admin) are listed apart.
//
// What the shell does not cover, and why it is not counted against the budget:
// - the page of the address (login, select, view, ...) is a lazy chunk the app requests as it
//   starts, beside config.json and the session read (src/app/router.tsx preloadRoute); the landing
//   screens a user meets first (/login signed out, /select or /view signed in) are listed below as
//   shell + that chunk, so their size stays visible;
// - on the wire every one of these goes out brotli-compressed (the build's .br copies): the figures
//   here are gzip, a little above what a browser receives.
// - the English texts (en-*.js) load beside the page's chunk, as another language's map does;
// - the outbox drain (triggers-*.js) and workbox-window load after the first paint (effects of
//   the mounted app), and the notifications panel when the tray is opened.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = process.env.DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = new Set();
for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/?([^"]+\.js)"/g)) entry.add(m[1]);

// Follow static imports: what the browser must load before the chunk runs.
function walk(file, seen) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    walk(new URL(m[1], `file:///${dir}`).pathname.slice(1), seen);
  }
  return seen;
}
const seen = new Set();
entry.forEach((f) => walk(f, seen));

const kb = (n) => (n / 1024).toFixed(1);
const gz = (f) => gzipSync(readFileSync(join(dist, f))).length;
let total = 0;
for (const f of seen) {
  total += gz(f);
  console.log(`  shell  ${f.padEnd(48)} ${kb(gz(f)).padStart(7)} KB gzip`);
}
const assets = readdirSync(join(dist, 'assets'));
const lazy = assets.filter((f) => f.endsWith('.js') && !seen.has(`assets/${f}`));
let lazyTotal = 0;
for (const f of lazy) lazyTotal += gz(`assets/${f}`);
// What the server sends: the build's brotli copy (vite.config.ts precompress), when there is one.
const br = (f) => (existsSync(join(dist, `${f}.br`)) ? readFileSync(join(dist, `${f}.br`)).length : brotliCompressSync(readFileSync(join(dist, f))).length);
const wire = [...seen].reduce((n, f) => n + br(f), 0);
console.log(`first-screen JS: ${kb(total)} KB gzip (budget <= 170 KB) ${total <= 170 * 1024 ? 'OK' : 'OVER'}; ${kb(wire)} KB brotli on the wire`);
// Each first screen: the shell's JS and CSS, plus what the browser fetches before the page's route
// renders: the route chunk and its preloaded dependencies (JS and CSS), which Vite lists beside the
// route's dynamic import in the entry (`import(`./results-x.js`),__vite__mapDeps([...])`).
const entryCode = [...entry].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
const depTable = /m\.f=(\[[^\]]*\])/.exec(entryCode);
const depFiles = depTable ? JSON.parse(depTable[1]) : [];
const shellCss = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/?([^"]+\.css)"/g)].map((m) => m[1]);
const shellCssBytes = shellCss.reduce((n, f) => n + gz(f), 0);
console.log(`  shell CSS ${shellCss.join(', ')}: ${kb(shellCssBytes)} KB gzip`);
let over = 0;
for (const page of ['login', 'select', 'view', 'results']) {
  // The route chunk (src/app/routes/<page>.tsx) as the entry imports it.
  const m = new RegExp(`import\\(\`\\./(${page}-[\\w-]{8}\\.js)\`\\)(?:\\.then\\([^)]*\\))?,__vite__mapDeps\\(\\[([\\d,]*)\\]\\)`).exec(entryCode);
  if (!m) {
    console.log(`  /${page}: its route chunk was not found in the entry`);
    over++;
    continue;
  }
  const files = new Set([`assets/${m[1]}`, ...m[2].split(',').filter(Boolean).map((i) => depFiles[Number(i)])]);
  for (const f of [...files]) if (f.endsWith('.js')) walk(f, files);
  const extra = [...files].filter((f) => !seen.has(f) && !shellCss.includes(f));
  const js = extra.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
  const css = extra.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(f), 0);
  const sum = total + shellCssBytes + js + css;
  if (sum > 170 * 1024) over++;
  console.log(
    `  /${page.padEnd(7)} shell + ${kb(js).padStart(5)} KB JS + ${kb(css).padStart(4)} KB CSS (${extra.length} files) = ${kb(sum)} KB gzip JS+CSS ${sum <= 170 * 1024 ? 'OK' : 'OVER'}`,
  );
}
console.log(`first screens (JS+CSS, budget <= 170 KB each): ${over ? `${over} over` : 'all within'}`);
// Text, not code: English (public/languages/en.json as a chunk) loads at start beside the chosen
// language's map (src/i18n/languages.ts), in parallel with the page's chunk; every language falls
// back to it. Not in the shell, so that its growth with each screen's texts shows here.
const english = assets.find((f) => /^en-[\w-]{8}\.js$/.test(f));
if (english) console.log(`  at start, beside the page: English texts ${kb(gz(`assets/${english}`))} KB gzip (other languages: their map from /languages/)`);
// Loaded by effects of the mounted app, after its first paint, on every start (signed in: the drain).
for (const [what, prefix] of [['service worker registration (workbox-window)', 'workbox-window'], ['outbox drain, signed in', 'triggers']]) {
  const chunk = assets.find((f) => f.startsWith(`${prefix}`) && f.endsWith('.js'));
  if (!chunk) continue;
  const extra = [...walk(`assets/${chunk}`, new Set())].filter((f) => !seen.has(f));
  console.log(`  after first paint: ${what}: ${kb(extra.reduce((n, f) => n + gz(f), 0))} KB gzip (${extra.length} chunks)`);
}
console.log(`lazy chunks: ${lazy.length} files, ${kb(lazyTotal)} KB gzip (loaded on demand)`);
