/**
 * The part of archiver 8 (ESM, no type declarations of its own; @types/archiver describes the older
 * default-export API) that server/services/export.ts uses.
 */
declare module 'archiver' {
  import type { Transform } from 'node:stream';

  export interface ZipOptions {
    /** Compression level of deflated entries (zlib), 0-9. */
    zlib?: { level?: number };
    /** Every entry stored without compression. */
    store?: boolean;
    forceZip64?: boolean;
    highWaterMark?: number;
  }

  export interface EntryData {
    /** The entry's path inside the zip ('/' separated). */
    name: string;
    date?: Date;
    /** This entry stored without compression. */
    store?: boolean;
  }

  export class ZipArchive extends Transform {
    constructor(options?: ZipOptions);
    append(source: NodeJS.ReadableStream | Buffer | string, data: EntryData): this;
    file(path: string, data: EntryData): this;
    /** Resolves once the zip's last byte has been produced (not necessarily written). */
    finalize(): Promise<void>;
    abort(): this;
    /** Bytes produced so far. */
    pointer(): number;
  }
}
