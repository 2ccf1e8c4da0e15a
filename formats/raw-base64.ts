/**
 * The `rawBase64` format (compat.md §2.1): the response body exactly as fetched, base64-encoded, for
 * any content type (a page, a PDF, an image). It must be the only format of a request (the bytes are
 * the answer; nothing is parsed for it). It is also the core's fallback for a file returned unparsed
 * (`parsers: []`) when no requested format shows the file (`unparsed: 'fallback'`).
 */
import { defineFormat } from '../core/plugin.ts';

export default defineFormat({
  name: 'rawBase64',
  content: 'binary',
  exclusive: true,
  needsParser: false,
  unparsed: 'fallback',
  pure: true,
  produce: (input) => ({ rawBase64: input.parsed.rawBase64 ?? Buffer.from(input.response.body).toString('base64') }),
});
