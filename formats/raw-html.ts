/**
 * The `rawHtml` format: the page HTML exactly as fetched (or as rendered by a browser engine), with no
 * cleaning (compat.md §2.1). For documents that are not web pages, the HTML a parser produced (DOCX),
 * else an empty string; the base64 text of a file returned unparsed (`parsers: []`).
 */
import { defineFormat } from '../core/plugin.ts';

export default defineFormat({
  name: 'rawHtml',
  content: 'markup',
  pure: true,
  unparsed: 'shows',
  produce: (input) => ({ rawHtml: input.parsed.rawBase64 ?? input.rawHtml() ?? input.parsed.html ?? '' }),
});
