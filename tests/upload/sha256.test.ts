/** src/sync/sha256.ts against node:crypto: every length around the block and padding edges, fed whole and in odd pieces. */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sha256 } from '../../src/sync/sha256';

const node = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('Sha256', () => {
  it('equals node:crypto for lengths 0..200 and around 1 MiB, whole and in pieces', () => {
    for (const n of [...Array.from({ length: 201 }, (_, i) => i), 1_048_575, 1_048_576, 1_048_577]) {
      const b = randomBytes(n);
      expect(new Sha256().update(b).hex(), `length ${n}`).toBe(node(b));
      const h = new Sha256();
      for (let i = 0; i < n; ) {
        const step = 1 + ((i * 7) % 97);
        h.update(b.subarray(i, i + step));
        i += step;
      }
      expect(h.hex(), `length ${n} in pieces`).toBe(node(b));
    }
  });

  it('the empty input and "abc" give the FIPS 180-4 values', () => {
    expect(new Sha256().hex()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(new Sha256().update(new TextEncoder().encode('abc')).hex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes 64 MiB in 1 MiB slices at a usable speed', () => {
    const mib = randomBytes(1_048_576);
    const h = new Sha256();
    const t0 = performance.now();
    for (let i = 0; i < 64; i++) h.update(mib);
    const ms = performance.now() - t0;
    const ref = createHash('sha256');
    for (let i = 0; i < 64; i++) ref.update(mib);
    expect(h.hex()).toBe(ref.digest('hex'));
    console.log(`Sha256: 64 MiB in ${ms.toFixed(0)} ms (${(64 / (ms / 1000)).toFixed(0)} MiB/s)`);
  });
});
