/**
 * Text decoding of fetched bodies. The charset comes from, in order: a byte-order mark, the
 * Content-Type header, a `<meta charset>` / `http-equiv` declaration in the first 2 KB, and finally
 * UTF-8 (the web's default today). Non-UTF-8 charsets are decoded with iconv-lite.
 */
import iconv from 'iconv-lite';

/** Charset named by a Content-Type header value, lower case, or undefined. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const m = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i);
  return m ? m[1].toLowerCase() : undefined;
}

function sniffBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function sniffMeta(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const m =
    head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i) ??
    head.match(/<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i);
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * Decodes a body to a string.
 * @param bytes       raw body
 * @param contentType the Content-Type header value (may carry `charset=`)
 * @returns the text and the charset used
 */
export function decodeBody(bytes: Uint8Array, contentType?: string): { text: string; charset: string } {
  let charset = sniffBom(bytes) ?? charsetFromContentType(contentType) ?? sniffMeta(bytes) ?? 'utf-8';
  if (charset === 'utf8') charset = 'utf-8';
  if (charset === 'utf-8' || !iconv.encodingExists(charset)) {
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
  }
  return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset), charset };
}

/** True when a content type denotes text the HTML/text parsers can take. */
export function isTextual(contentType: string): boolean {
  return /^text\/|[+/](xml|json|xhtml)|javascript/.test(contentType);
}
