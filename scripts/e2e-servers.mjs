#!/usr/bin/env node
// The browser tests' servers, started side by side (playwright.config.ts runs this as its one
// webServer). Playwright starts the entries of a webServer list one after the other: the main
// server's start (with its 300-document seed) and then the lease server's cost about 30 s before the
// first test, where side by side they cost the longer of the two.
//
// E2E_SERVERS: a JSON list of { port, env }, one server each: server/main.ts with this process's
// environment (what the servers share) and those variables.
// E2E_READY_PORT: answers 200 once every server answers its /config.json, which is what Playwright
// waits for. A server that ends before the tests do ends this too; SIGTERM or SIGINT
// (Playwright's teardown) stops every server.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]');
const readyPort = Number(process.env.E2E_READY_PORT);
if (servers.length === 0 || !readyPort) {
  console.error('e2e-servers: E2E_SERVERS and E2E_READY_PORT are required');
  process.exit(2);
}

let stopping = false;
const children = servers.map(({ port, env }) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), E2E_SERVERS: '', E2E_READY_PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) out.write(`[${port}] ${l}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`e2e-servers: the server on port ${port} ended (${signal ?? code}) before the tests did`);
    stop(1);
  });
  return { port, child };
});

function stop(code) {
  if (stopping) return;
  stopping = true;
  const alive = children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
  for (const { child } of alive) child.kill('SIGTERM');
  let left = alive.length;
  if (left === 0) process.exit(code);
  for (const { child } of alive) child.on('exit', () => --left === 0 && process.exit(code));
  // A server that does not close within 10 s is not waited for.
  setTimeout(() => {
    for (const { child } of alive) child.kill('SIGKILL');
    process.exit(code);
  }, 10_000).unref();
}
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

async function answers(port) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/config.json`)).ok;
  } catch {
    return false;
  }
}

const pending = new Set(children.map((c) => c.port));
while (pending.size > 0 && !stopping) {
  for (const port of [...pending]) if (await answers(port)) pending.delete(port);
  if (pending.size > 0) await new Promise((r) => setTimeout(r, 200));
}
if (!stopping) {
  createServer((_, res) => res.end('ready')).listen(readyPort, '127.0.0.1');
  console.log(`e2e-servers: ${children.length} servers ready (${children.map((c) => c.port).join(', ')})`);
}
