#!/usr/bin/env node
// `npm start`: build the app when the sources are newer than dist/, then serve it with the API.
// The server seeds a demo archive on an empty data folder (see README).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
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

export function buildIfNeeded() {
  if (!needsBuild()) return;
  console.log('Building the app (sources changed since the last build)...');
  const r = spawnSync('npx', ['vite', 'build', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildIfNeeded();
  const child = spawn('npx', ['tsx', 'server/main.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, DIST_DIR: dist } });
  const stop = (sig) => child.kill(sig);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
