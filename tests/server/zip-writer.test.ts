/**
 * The export's streaming zip writer (server/services/zip-writer.ts): what it writes is read back by
 * two independent readers (fflate, and Python's zipfile, which checks every CRC), stored and deflated
 * entries, streams and buffers, UTF-8 names, ZIP64 forced and ZIP64 because of the entry count; and its
 * memory does not grow with the number of entries (the central directory waits in a spool file).
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { StreamingZipWriter } from '../../server/services/zip-writer';

const dir = mkdtempSync(join(tmpdir(), 'zip-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function write(entries: { name: string; data: Buffer; compress: boolean; stream?: boolean }[], forceZip64 = false): Promise<string> {
  const path = join(dir, `z${++n}.zip`);
  const out = createWriteStream(path);
  const closed = new Promise<void>((resolve) => out.on('close', () => resolve()));
  const zip = new StreamingZipWriter(out, { spoolPath: `${path}.cd`, forceZip64 });
  for (const e of entries) {
    if (e.stream) {
      const src = join(dir, `src-${n}-${Math.random()}`);
      writeFileSync(src, e.data);
      await zip.add(createReadStream(src, { highWaterMark: 7_777 }), e.name, e.compress);
    } else await zip.add(e.data, e.name, e.compress);
  }
  await zip.finish();
  await closed;
  expect(existsSync(`${path}.cd`)).toBe(false);
  return path;
}

/** Python's zipfile: names, sizes, methods, and testzip() (every CRC checked). */
function pythonRead(path: string): { names: string[]; methods: number[]; sizes: number[]; bad: string | null; sha: string[] } {
  const py = `
import zipfile, json, hashlib, sys
z = zipfile.ZipFile(sys.argv[1])
infos = z.infolist()
print(json.dumps({"names": [i.filename for i in infos], "methods": [i.compress_type for i in infos], "sizes": [i.file_size for i in infos], "bad": z.testzip(), "sha": [hashlib.sha256(z.read(i)).hexdigest() for i in infos]}))
`;
  const r = spawnSync('python3', ['-c', py, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const random = (size: number) => randomBytes(size);

describe('StreamingZipWriter', () => {
  const entries = [
    { name: 'doc-1/Invoice 1.pdf', data: random(200_000), compress: false, stream: true },
    { name: 'doc-2/scan.tif', data: random(3), compress: false },
    { name: 'doc-3/Ünïcödé – €.txt', data: Buffer.from('Grüße '.repeat(10_000)), compress: true, stream: true },
    { name: 'empty.bin', data: Buffer.alloc(0), compress: false },
    { name: 'index.csv', data: Buffer.from('"Title";"Amount"\r\n"A, B";"1.5"\r\n'.repeat(2_000)), compress: true },
  ];

  for (const forceZip64 of [false, true]) {
    it(`writes a zip both readers take whole${forceZip64 ? ' (every record ZIP64)' : ''}`, async () => {
      const path = await write(entries, forceZip64);
      const bytes = readFileSync(path);
      const viaFflate = unzipSync(new Uint8Array(bytes));
      expect(Object.keys(viaFflate)).toEqual(entries.map((e) => e.name));
      for (const e of entries) expect(Buffer.from(viaFflate[e.name]!).equals(e.data), e.name).toBe(true);
      const py = pythonRead(path);
      expect(py.bad).toBeNull();
      expect(py.names).toEqual(entries.map((e) => e.name));
      expect(py.methods).toEqual(entries.map((e) => (e.compress ? 8 : 0)));
      expect(py.sizes).toEqual(entries.map((e) => e.data.length));
      expect(py.sha).toEqual(entries.map((e) => sha(e.data)));
      // Deflated entries are smaller than their bytes.
      expect(bytes.length).toBeLessThan(entries.reduce((a, e) => a + e.data.length, 0));
      if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0) {
        const t = spawnSync('unzip', ['-tq', path], { encoding: 'utf8' });
        expect(t.status, t.stdout + t.stderr).toBe(0);
      }
    });
  }

  it('writes the ZIP64 end records when there are 65,535 entries or more', async () => {
    const many = Array.from({ length: 65_600 }, (_, i) => ({ name: `d/${i}.txt`, data: Buffer.from(String(i)), compress: false }));
    const path = await write(many);
    const py = pythonRead(path);
    expect(py.bad).toBeNull();
    expect(py.names.length).toBe(65_600);
    expect(py.names.at(-1)).toBe('d/65599.txt');
    expect(readFileSync(path).includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
  }, 300_000);

  it('keeps no memory per entry: the central directory waits on disk', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const path = join(dir, 'memory.zip');
    const out = createWriteStream(path);
    // finish() ends the stream without waiting for it to close (its callers wait): the test does.
    const closed = new Promise<void>((resolve) => out.on('close', () => resolve()));
    const zip = new StreamingZipWriter(out, { spoolPath: `${path}.cd` });
    const data = Buffer.alloc(2_000, 7);
    // Streams, as the export adds its documents' files.
    const file = () => Readable.from([data], { objectMode: false });
    for (let i = 0; i < 500; i++) await zip.add(file(), `warm/${i}.pdf`, false);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i++) await zip.add(file(), `doc-${i}/invoice-${i}.pdf`, false);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // yazl kept ~0.5 KB an entry (~5 MiB for these).
    expect(grown / 1_048_576).toBeLessThan(2);
    await zip.finish();
    await closed;
    expect(unzipSync(new Uint8Array(readFileSync(path)), { filter: (f) => f.name === 'doc-9999/invoice-9999.pdf' })['doc-9999/invoice-9999.pdf']?.length).toBe(2_000);
  }, 300_000);

  it('refuses a name a zip cannot hold, and abort removes its spool', async () => {
    const path = join(dir, 'aborted.zip');
    const zip = new StreamingZipWriter(createWriteStream(path), { spoolPath: `${path}.cd` });
    await expect(zip.add(Buffer.from('x'), '/etc/passwd', false)).rejects.toThrow(/cannot be named/);
    await zip.add(Buffer.from('x'), 'ok.txt', false);
    await zip.abort();
    expect(existsSync(`${path}.cd`)).toBe(false);
  });
});
