/**
 * Text files to strings: a byte-order mark decides (UTF-8, UTF-16 LE/BE), else strict UTF-8, else
 * Windows-1252 (iconv-lite), the usual encoding of text that is not UTF-8.
 */
import iconv from 'iconv-lite';

/** Decodes text bytes; `known` (already decoded by the engine) wins. */
export function decodeText(bytes: Uint8Array, known?: string): string {
  if (known !== undefined) return known;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return iconv.decode(Buffer.from(bytes.subarray(2)), 'utf-16be');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return iconv.decode(Buffer.from(bytes), 'windows-1252');
  }
}
