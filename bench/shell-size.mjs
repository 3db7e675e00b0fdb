#!/usr/bin/env node
// First-screen JavaScript, gzip: every script and modulepreload that dist/index.html loads
// (the shell), against the 170 KB budget. Lazy chunks (grid, viewer, admin) are listed apart.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = process.env.DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = new Set();
for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/?([^"]+\.js)"/g)) entry.add(m[1]);

// Follow static imports of the entry chunks: what the browser must load before the first paint.
const seen = new Set();
function walk(file) {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    walk(new URL(m[1], `file:///${dir}`).pathname.slice(1));
  }
}
entry.forEach(walk);

const kb = (n) => (n / 1024).toFixed(1);
let total = 0;
for (const f of seen) {
  const gz = gzipSync(readFileSync(join(dist, f))).length;
  total += gz;
  console.log(`  shell  ${f.padEnd(48)} ${kb(gz).padStart(7)} KB gzip`);
}
const lazy = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js') && !seen.has(`assets/${f}`));
let lazyTotal = 0;
for (const f of lazy) lazyTotal += gzipSync(readFileSync(join(dist, 'assets', f))).length;
console.log(`first-screen JS: ${kb(total)} KB gzip (budget <= 170 KB) ${total <= 170 * 1024 ? 'OK' : 'OVER'}`);
console.log(`lazy chunks: ${lazy.length} files, ${kb(lazyTotal)} KB gzip (loaded on demand)`);
