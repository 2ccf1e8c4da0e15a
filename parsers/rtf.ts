/**
 * The `rtf` parser: Rich Text Format documents (compat.md §14) read with officeparser (headings, lists,
 * tables, links) as HTML for the normal cleaning and markdown conversion. Recognized by the `{\rtf`
 * signature, so an RTF served as `text/plain` is read as RTF and not as its control words.
 */
import { defineParser } from '../core/plugin.ts';

const SIGNATURE = '{\\rtf';

export default defineParser({
  name: 'rtf',
  accepts: {
    mime: ['application/rtf', 'text/rtf', 'application/x-rtf', 'text/richtext'],
    ext: ['.rtf'],
    magic: (bytes) => new TextDecoder('latin1').decode(bytes.subarray(0, SIGNATURE.length)) === SIGNATURE,
  },
  async parse(input, _options, ctx) {
    const [{ readOffice }, { TrawlError }] = await Promise.all([import('./office/officeparser.ts'), import('../core/errors.ts')]);
    if (new TextDecoder('latin1').decode(input.bytes.subarray(0, SIGNATURE.length)) !== SIGNATURE) {
      throw new TrawlError('PARSE_FAILED', '[rtf] the file is not an RTF document (it does not start with {\\rtf)');
    }
    return readOffice('rtf', input.bytes, ctx);
  },
});
