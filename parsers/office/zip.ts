/**
 * ZIP containers of office files (DOCX, XLSX, ODT ...): entry names for content sniffing, and the
 * zip-bomb check run before a file is handed to mammoth or exceljs. The check reads the central
 * directory (entry count, declared sizes, compression ratios) and then inflates every entry with an
 * output cap equal to its declared size, so an entry that lies about its size is caught without
 * being expanded.
 */
import { inflateRawSync } from 'node:zlib';
import { TrawlError } from '../../core/errors.ts';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the local file header. */
  offset: number;
}

/** Limits of the zip-bomb check. */
export const ZIP_LIMITS = {
  entries: 20_000,
  /** Sum of declared uncompressed sizes, bytes. */
  totalBytes: 256 * 1024 * 1024,
  /** Largest ratio of uncompressed to compressed size for entries over `ratioFloorBytes`. */
  ratio: 200,
  ratioFloorBytes: 1024 * 1024,
};

/** Reads the central directory; undefined when the bytes are not a readable ZIP. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | undefined {
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const out: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    out.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

/** The stored bytes of an entry, inflated with an output cap of `limit` bytes. */
function inflate(bytes: Uint8Array, e: ZipEntry, limit: number): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(e.offset, true) !== 0x04034b50) throw new Error(`bad local header for ${e.name}`);
  const start = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
  const data = bytes.subarray(start, start + e.compressedSize);
  if (e.method === 0) return data;
  if (e.method !== 8) throw new Error(`unsupported compression method ${e.method} for ${e.name}`);
  return inflateRawSync(data, { maxOutputLength: Math.max(1, limit) });
}

/**
 * Rejects zip bombs and broken containers.
 * @param kind the parser name for messages (`docx`, `xlsx`)
 * @returns the entries
 * @throws TrawlError PARSE_FAILED when the ZIP is unreadable or over a limit of ZIP_LIMITS
 */
export function checkZip(bytes: Uint8Array, kind: string): ZipEntry[] {
  const entries = zipEntries(bytes);
  if (!entries) throw new TrawlError('PARSE_FAILED', `[${kind}] the file is not a readable ZIP container`);
  const bomb = (why: string) => new TrawlError('PARSE_FAILED', `[${kind}] the file looks like a zip bomb and was not opened: ${why}`);
  if (entries.length > ZIP_LIMITS.entries) throw bomb(`${entries.length} entries`);
  const total = entries.reduce((a, e) => a + e.size, 0);
  if (total > ZIP_LIMITS.totalBytes) throw bomb(`it expands to ${Math.round(total / 1048576)} MiB`);
  for (const e of entries) {
    if (e.size > ZIP_LIMITS.ratioFloorBytes && e.size / Math.max(1, e.compressedSize) > ZIP_LIMITS.ratio) {
      throw bomb(`${e.name} is compressed ${Math.round(e.size / Math.max(1, e.compressedSize))}:1`);
    }
  }
  for (const e of entries) {
    if (e.name.endsWith('/')) continue;
    try {
      inflate(bytes, e, e.size);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw bomb(`${e.name} is larger than it declares`);
      throw new TrawlError('PARSE_FAILED', `[${kind}] the ZIP container is damaged (${e.name}): ${(err as Error).message}`, { cause: err });
    }
  }
  return entries;
}

/** The text of one entry (after checkZip), or undefined when absent. */
export function readEntryText(bytes: Uint8Array, entries: ZipEntry[], name: string): string | undefined {
  const e = entries.find((x) => x.name === name);
  return e ? new TextDecoder().decode(inflate(bytes, e, e.size)) : undefined;
}

/** Whether the bytes are a ZIP holding an entry named `name` (content sniffing). */
export function zipHas(bytes: Uint8Array, name: string): boolean {
  return zipEntries(bytes)?.some((e) => e.name === name) ?? false;
}
