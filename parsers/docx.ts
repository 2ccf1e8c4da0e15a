/**
 * The `docx` parser: Word documents to HTML with mammoth (headings, lists, tables, links, images as
 * data URIs), returned as `html` so the normal cleaning and markdown conversion runs on it. The ZIP
 * container is checked for zip bombs first (office/zip.ts); external files linked from the document
 * are never read. Metadata comes from the document properties.
 */
import { defineParser } from '../core/plugin.ts';
import { zipHas } from './office/zip.ts';

const MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export default defineParser({
  name: 'docx',
  accepts: { mime: [MIME], ext: ['.docx'], magic: (bytes) => zipHas(bytes, 'word/document.xml') },
  async parse(input, _options, ctx) {
    const [{ checkZip }, { coreProperties }, { TrawlError }, mammoth] = await Promise.all([
      import('./office/zip.ts'),
      import('./office/core-props.ts'),
      import('../core/errors.ts'),
      import('mammoth'),
    ]);
    const entries = checkZip(input.bytes, 'docx');
    if (!entries.some((e) => e.name === 'word/document.xml')) {
      throw new TrawlError('PARSE_FAILED', '[docx] the file is a ZIP but not a Word document (no word/document.xml)');
    }
    let result: { value: string; messages: { type: string; message: string }[] };
    try {
      result = await mammoth.default.convertToHtml({ buffer: Buffer.from(input.bytes) }, { externalFileAccess: false });
    } catch (e) {
      throw new TrawlError('PARSE_FAILED', `[docx] the document could not be read: ${(e as Error).message}`, { cause: e });
    }
    const errors = result.messages.filter((m) => m.type === 'error');
    if (result.messages.length) ctx.log.debug({ messages: result.messages.length }, 'mammoth messages');
    const metadata = coreProperties(input.bytes, entries);
    const title = metadata.title ? `<title>${escapeHtml(metadata.title)}</title>` : '';
    return {
      html: `<!DOCTYPE html><html><head><meta charset="utf-8">${title}</head><body>${result.value}</body></html>`,
      metadata,
      warning: errors.length ? `[docx] ${errors.map((e) => e.message).join('; ')}` : undefined,
    };
  },
});
