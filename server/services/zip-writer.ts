/**
 * A streaming zip writer whose memory does not grow with the number of entries (issue 10 item 5: "a
 * 10,000-document export's peak memory stays flat"). Each entry is streamed from its source into the
 * zip (stored, or deflated with zlib), with its CRC-32 and sizes in a data descriptor after it (bit 3:
 * the sizes are not known before the bytes are read), and its central-directory record is written at
 * once to a spool file beside the zip instead of being kept in memory until the end (yazl, used
 * before, kept ~0.5 KB of objects an entry: 50 MB at 100,000 documents). At the end the spool is
 * copied behind the entries and the end records written, in ZIP64 form only when the zip needs it
 * (65,535 entries or more, an offset or size of 4 GB or more), as APPNOTE 6.3.x describes.
 *
 * One entry at a time; each add() resolves once its bytes are in the zip stream (backpressure: a file
 * is read no faster than the disk takes the zip). Names are UTF-8 (flag bit 11).
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

const U32 = 0xffff_ffff;
const U16 = 0xffff;
const FLAGS = 0x0008 | 0x0800;
/** Made by UNIX (3), spec version 4.5 / 2.0. */
const MADE_BY_ZIP64 = (3 << 8) | 45;
const MADE_BY = (3 << 8) | 20;
/** -rw-r--r-- regular file. */
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;
/** Central-directory records are written to the spool in blocks of about this size. */
const SPOOL_BLOCK = 64 * 1024;

export interface ZipWriterOptions {
  /** Where the central directory waits until the end (removed by finish and abort). */
  spoolPath: string;
  /** Tests: every record in ZIP64 form. */
  forceZip64?: boolean;
  /** One time for every entry (default: now). */
  mtime?: Date;
}

function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, Math.min(2107, d.getFullYear()));
  return {
    time: ((d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2)) & 0xffff,
    date: (((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate()) & 0xffff,
  };
}

const writeU64 = (b: Buffer, v: number, at: number) => b.writeBigUInt64LE(BigInt(v), at);

/** Counts the bytes that pass (and their CRC-32 when `crc` is set). */
class Meter extends Transform {
  bytes = 0;
  crc = 0;
  constructor(private readonly withCrc: boolean) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null, data?: Buffer) => void) {
    this.bytes += chunk.length;
    if (this.withCrc) this.crc = crc32(chunk, this.crc);
    cb(null, chunk);
  }
}

export class StreamingZipWriter {
  private offset = 0;
  private entries = 0;
  private cdSize = 0;
  private readonly spool: WriteStream;
  private block: Buffer[] = [];
  private blockBytes = 0;
  private readonly time: { time: number; date: number };
  private source: Readable | null = null;
  private closed = false;

  constructor(
    private readonly out: Writable,
    private readonly opts: ZipWriterOptions,
  ) {
    this.spool = createWriteStream(opts.spoolPath);
    this.time = dosTime(opts.mtime ?? new Date());
  }

  /** The streams whose errors end the zip (for a caller's error guard). */
  get streams(): Writable[] {
    return [this.out, this.spool];
  }

  /** Bytes written to the zip so far. */
  get size(): number {
    return this.offset;
  }

  private async put(b: Buffer): Promise<void> {
    this.offset += b.length;
    if (!this.out.write(b)) await waitDrain(this.out);
  }

  /** A stream into the zip (counted, with the zip's backpressure), for a pipeline's end. */
  private sink(): Writable {
    return new Writable({ write: (chunk: Buffer, _enc, cb) => void this.put(chunk).then(() => cb(), cb) });
  }

  /** Adds one entry; resolves once its source is read to the end and its bytes are in the zip stream. */
  async add(src: NodeJS.ReadableStream | Buffer, name: string, compress: boolean): Promise<void> {
    if (this.closed) throw new Error('The zip is finished');
    const nameBytes = Buffer.from(name, 'utf8');
    if (!nameBytes.length || nameBytes.length > U16 || name.includes('\\') || name.startsWith('/')) throw new Error(`A zip entry cannot be named ${JSON.stringify(name)}`);
    const zip64 = this.opts.forceZip64 === true;
    const headerOffset = this.offset;
    const method = compress ? 8 : 0;
    // The local header: sizes and CRC in the data descriptor after the bytes (flag bit 3). A ZIP64
    // extra field with zeros says the descriptor's sizes are 8 bytes each.
    const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(zip64 ? 45 : 20, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(this.time.time, 10);
    local.writeUInt16LE(this.time.date, 12);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(zip64 ? U32 : 0, 18);
    local.writeUInt32LE(zip64 ? U32 : 0, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(extra.length, 28);
    await this.put(Buffer.concat([local, nameBytes, extra]));

    if (Buffer.isBuffer(src)) {
      // Bytes already in memory: no streams to set up.
      const data = compress ? deflateRawSync(src) : src;
      await this.put(data);
      return this.close(nameBytes, method, crc32(src) >>> 0, data.length, src.length, headerOffset, zip64);
    }
    const stream = src as Readable;
    this.source = stream;
    const raw = new Meter(true);
    const packed = new Meter(false);
    const sink = this.sink();
    try {
      if (compress) await pipeline(stream, raw, createDeflateRaw(), packed, sink);
      else await pipeline(stream, raw, packed, sink);
    } finally {
      this.source = null;
    }
    return this.close(nameBytes, method, raw.crc >>> 0, packed.bytes, raw.bytes, headerOffset, zip64);
  }

  /** The entry's data descriptor into the zip, its record into the spool. */
  private async close(nameBytes: Buffer, method: number, crc: number, compressed: number, size: number, headerOffset: number, zip64: boolean) {
    const big = zip64 || size >= U32 || compressed >= U32;
    // The data descriptor (with its signature): 8-byte sizes when the entry is ZIP64.
    const dd = Buffer.alloc(big ? 24 : 16);
    dd.writeUInt32LE(0x08074b50, 0);
    dd.writeUInt32LE(crc, 4);
    if (big) {
      writeU64(dd, compressed, 8);
      writeU64(dd, size, 16);
    } else {
      dd.writeUInt32LE(compressed, 8);
      dd.writeUInt32LE(size, 12);
    }
    await this.put(dd);
    await this.record(nameBytes, method, crc, compressed, size, headerOffset, zip64);
  }

  /** The entry's central-directory record, to the spool. */
  private async record(name: Buffer, method: number, crc: number, compressed: number, size: number, offset: number, force: boolean) {
    const wide = { size: force || size >= U32, compressed: force || compressed >= U32, offset: force || offset >= U32 };
    const extraLen = (wide.size ? 8 : 0) + (wide.compressed ? 8 : 0) + (wide.offset ? 8 : 0);
    const extra = Buffer.alloc(extraLen ? 4 + extraLen : 0);
    if (extraLen) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(extraLen, 2);
      let at = 4;
      // APPNOTE 4.5.3: only the fields that overflow, in this order.
      for (const [on, v] of [
        [wide.size, size],
        [wide.compressed, compressed],
        [wide.offset, offset],
      ] as const) {
        if (!on) continue;
        writeU64(extra, v, at);
        at += 8;
      }
    }
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(extraLen ? MADE_BY_ZIP64 : MADE_BY, 4);
    h.writeUInt16LE(extraLen ? 45 : 20, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(method, 10);
    h.writeUInt16LE(this.time.time, 12);
    h.writeUInt16LE(this.time.date, 14);
    h.writeUInt32LE(crc, 16);
    h.writeUInt32LE(wide.compressed ? U32 : compressed, 20);
    h.writeUInt32LE(wide.size ? U32 : size, 24);
    h.writeUInt16LE(name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    h.writeUInt16LE(0, 32);
    h.writeUInt16LE(0, 34);
    h.writeUInt16LE(0, 36);
    h.writeUInt32LE(EXTERNAL_ATTRS, 38);
    h.writeUInt32LE(wide.offset ? U32 : offset, 42);
    const rec = Buffer.concat([h, name, extra]);
    this.entries++;
    this.cdSize += rec.length;
    this.block.push(rec);
    this.blockBytes += rec.length;
    if (this.blockBytes >= SPOOL_BLOCK) await this.flushSpool();
  }

  private async flushSpool() {
    if (!this.blockBytes) return;
    const b = Buffer.concat(this.block, this.blockBytes);
    this.block = [];
    this.blockBytes = 0;
    if (!this.spool.write(b)) await waitDrain(this.spool);
  }

  /** Writes the central directory and the end records, and ends the zip stream (not waiting for it to close). */
  async finish(): Promise<void> {
    this.closed = true;
    await this.flushSpool();
    await new Promise<void>((resolve, reject) => this.spool.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const cdOffset = this.offset;
    if (this.cdSize) {
      await pipeline(
        createReadStream(this.opts.spoolPath),
        this.sink(),
      );
    }
    await rm(this.opts.spoolPath, { force: true });
    const zip64 = this.opts.forceZip64 === true || this.entries >= U16 || cdOffset >= U32 || this.cdSize >= U32;
    const tail: Buffer[] = [];
    if (zip64) {
      const eocd64Offset = this.offset;
      const r = Buffer.alloc(56);
      r.writeUInt32LE(0x06064b50, 0);
      writeU64(r, 44, 4);
      r.writeUInt16LE(MADE_BY_ZIP64, 12);
      r.writeUInt16LE(45, 14);
      r.writeUInt32LE(0, 16);
      r.writeUInt32LE(0, 20);
      writeU64(r, this.entries, 24);
      writeU64(r, this.entries, 32);
      writeU64(r, this.cdSize, 40);
      writeU64(r, cdOffset, 48);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(0x07064b50, 0);
      loc.writeUInt32LE(0, 4);
      writeU64(loc, eocd64Offset, 8);
      loc.writeUInt32LE(1, 16);
      tail.push(r, loc);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(0, 4);
    end.writeUInt16LE(0, 6);
    end.writeUInt16LE(zip64 ? U16 : this.entries, 8);
    end.writeUInt16LE(zip64 ? U16 : this.entries, 10);
    end.writeUInt32LE(zip64 ? U32 : this.cdSize, 12);
    end.writeUInt32LE(zip64 ? U32 : cdOffset, 16);
    end.writeUInt16LE(0, 20);
    tail.push(end);
    await this.put(Buffer.concat(tail));
    this.out.end();
  }

  /** Stops: the source being read and the streams destroyed, the spool removed. */
  async abort(): Promise<void> {
    this.closed = true;
    this.source?.destroy();
    this.out.destroy();
    this.spool.destroy();
    await rm(this.opts.spoolPath, { force: true });
  }
}

function waitDrain(w: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (w.destroyed) return reject(new Error('The stream was closed'));
    const done = () => {
      w.off('drain', done);
      w.off('error', fail);
      w.off('close', closed);
      resolve();
    };
    const fail = (e: Error) => {
      w.off('drain', done);
      w.off('close', closed);
      reject(e);
    };
    const closed = () => {
      w.off('drain', done);
      w.off('error', fail);
      reject(new Error('The stream was closed'));
    };
    w.once('drain', done);
    w.once('error', fail);
    w.once('close', closed);
  });
}
