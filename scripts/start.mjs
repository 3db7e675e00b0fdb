#!/usr/bin/env node
// `npm start`: build the app when the sources are newer than dist/, then serve it with the API.
// The server seeds a demo archive on an empty data folder (see README).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, process.env.DIST_DIR ?? 'dist');

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

export function needsBuild() {
  const built = join(dist, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
  const newestSource = Math.max(...sources.map((s) => newest(join(root, s))));
  return newestSource > statSync(built).mtimeMs;
}

/**
 * Builds the app when its sources changed. Vite's own output (every chunk's size, advice about large
 * lazy chunks, a plugin's deprecation notice, plugin timings on a busy machine) reads like trouble to
 * someone who only wants the app running, so it is kept in .tmp/build.log and shown only when the
 * build fails; a progress line says what is happening meanwhile.
 */
export function buildIfNeeded() {
  if (!needsBuild()) return;
  const t0 = Date.now();
  const first = !existsSync(join(dist, 'index.html'));
  console.log(`Building the app${first ? '' : ' (its sources changed since the last build)'}: about 10-30 s...`);
  const r = spawnSync('npx', ['vite', 'build', '--outDir', dist], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  mkdirSync(join(root, '.tmp'), { recursive: true });
  writeFileSync(join(root, '.tmp', 'build.log'), output);
  if (r.status !== 0) {
    process.stderr.write(output);
    console.error('The build failed (its whole output is above and in .tmp/build.log).');
    process.exit(r.status ?? 1);
  }
  console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s (Vite's report: .tmp/build.log).`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildIfNeeded();
  const child = spawn('npx', ['tsx', 'server/main.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, DIST_DIR: dist } });
  const stop = (sig) => child.kill(sig);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
