/**
 * The `text` parser: plain text and markdown files come out as they are; JSON comes out pretty-printed
 * in a fenced ```json block (as received when it does not parse). Text is decoded by byte-order mark,
 * then UTF-8, then Windows-1252.
 */
import { defineParser } from '../core/plugin.ts';

const JSON_TYPES = ['application/json', 'application/ld+json', 'application/manifest+json', 'text/json', 'application/x-json'];

/** A fence longer than any backtick run in `body`. */
function fence(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

export default defineParser({
  name: 'text',
  accepts: {
    mime: ['text/plain', 'text/markdown', 'text/x-markdown', ...JSON_TYPES],
    ext: ['.txt', '.text', '.md', '.markdown', '.log', '.json', '.jsonld'],
  },
  async parse(input) {
    const { decodeText } = await import('./office/decode.ts');
    const text = decodeText(input.bytes, input.text).replace(/^\uFEFF/, '');
    const name = (input.filename ?? input.url.replace(/[?#].*$/, '')).toLowerCase();
    const isJson = JSON_TYPES.includes(input.contentType) || input.contentType.endsWith('+json') || /\.json(ld)?$/.test(name);
    if (!isJson) return { markdown: text.replace(/\r\n?/g, '\n'), metadata: {} };
    let body = text.trim();
    let warning: string | undefined;
    try {
      body = JSON.stringify(JSON.parse(body), null, 2);
    } catch (e) {
      warning = `[text] the JSON does not parse (${(e as Error).message}); it is shown as received`;
    }
    const f = fence(body);
    return { markdown: `${f}json\n${body}\n${f}`, metadata: {}, warning };
  },
});
