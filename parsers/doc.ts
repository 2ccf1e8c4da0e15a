/**
 * The `doc` parser: Word 97–2003 documents (compat.md §14), the text of the body read with
 * word-extractor (pure JavaScript, OLE compound files) and returned as paragraphs of HTML for the
 * normal cleaning and markdown conversion. Recognized by the OLE signature and its `WordDocument`
 * stream; an encrypted (password-protected) or damaged file is PARSE_FAILED (422 for uploads).
 */
import { defineParser } from '../core/plugin.ts';

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream name `WordDocument` as it appears in an OLE directory entry (UTF-16LE). */
const WORD_STREAM = Buffer.from('WordDocument', 'utf16le');

/** Whether the bytes are an OLE compound file holding a `WordDocument` stream. */
export function isWordDoc(bytes: Uint8Array): boolean {
  if (bytes.length < 512 || OLE.some((b, i) => bytes[i] !== b)) return false;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(WORD_STREAM) >= 0;
}

/** FIB flag `fEncrypted` (offset 0x0A of the WordDocument stream, MS-DOC 2.5.2). */
const F_ENCRYPTED = 0x0100;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export default defineParser({
  name: 'doc',
  accepts: { mime: ['application/msword'], ext: ['.doc', '.dot'], magic: isWordDoc },
  async parse(input) {
    const [{ TrawlError }, { default: WordExtractor }, { default: WordOleExtractor }] = await Promise.all([
      import('../core/errors.ts'),
      import('word-extractor'),
      import('word-extractor/lib/word-ole-extractor.js'),
    ]);
    if (!isWordDoc(input.bytes)) throw new TrawlError('PARSE_FAILED', '[doc] the file is not a Word 97-2003 document (no OLE WordDocument stream)');
    // word-extractor reads an encrypted document as if it were plain: look at the FIB flag first.
    const proto = WordOleExtractor.prototype as { extractWordDocument(d: unknown, b: Buffer): Promise<unknown>; __trawlChecked?: boolean };
    if (!proto.__trawlChecked) {
      const original = proto.extractWordDocument;
      proto.extractWordDocument = function (this: unknown, document: unknown, buffer: Buffer) {
        if (buffer.length >= 12 && (buffer.readUInt16LE(0x0a) & F_ENCRYPTED) !== 0) return Promise.reject(Object.assign(new Error('encrypted'), { encrypted: true }));
        return original.call(this, document, buffer);
      };
      proto.__trawlChecked = true;
    }
    let body: string;
    try {
      const doc = await new WordExtractor().extract(Buffer.from(input.bytes));
      body = doc.getBody();
    } catch (e) {
      if ((e as { encrypted?: boolean }).encrypted) throw new TrawlError('PARSE_FAILED', '[doc] the document is password-protected (encrypted); Trawl cannot read it', { cause: e });
      throw new TrawlError('PARSE_FAILED', `[doc] the document could not be read: ${(e as Error).message}`, { cause: e });
    }
    const paragraphs = body.split(/\n+/).map((p) => p.trim()).filter(Boolean);
    return { html: `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</body></html>`, metadata: {} };
  },
});
