/**
 * Documents read with officeparser (PPTX, ODT, ODS, ODP, RTF, EPUB; compat.md §14): the file is
 * turned into officeparser's document tree and written out as HTML, which the normal cleaning and
 * markdown conversion then read, as for DOCX through mammoth. ZIP containers pass our zip-bomb check
 * (office/zip.ts) first, and officeparser runs with the same decompression limits, no attachments,
 * no OCR and the scrape's abort signal. Every failure is PARSE_FAILED naming the parser (422 for
 * uploads): damaged, truncated, encrypted or over a limit.
 */
import type { PluginContext } from '../../core/plugin.ts';
import { TrawlError } from '../../core/errors.ts';
import { checkZip, readEntryText, ZIP_LIMITS, type ZipEntry } from './zip.ts';

/** The officeparser file types Trawl reads with it. */
export type OfficeKind = 'pptx' | 'odt' | 'ods' | 'odp' | 'rtf' | 'epub';

/** What a parser built on officeparser returns (a ParsedDocument's fields). */
export interface OfficeDocument {
  html: string;
  metadata: Record<string, unknown>;
  warning?: string;
}

/** officeparser error types that mean the document is password-protected. */
const ENCRYPTED = new Set(['PASSWORD_REQUIRED', 'PASSWORD_INCORRECT', 'DOCUMENT_DECRYPTION_FAILED']);

/** The text of the `mimetype` entry of an ODF or EPUB container (its first entry, stored), or undefined. */
export function zipMimetype(bytes: Uint8Array, entries: ZipEntry[]): string | undefined {
  return entries.some((e) => e.name === 'mimetype') ? readEntryText(bytes, entries, 'mimetype')?.trim() : undefined;
}

/** Whether the bytes are a ZIP whose stored `mimetype` (ODF, EPUB: right after the first local header) is `mime`. */
export function hasZipMimetype(bytes: Uint8Array, mime: string): boolean {
  if (bytes.length < 38 + mime.length || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  const extra = bytes[28]! | (bytes[29]! << 8);
  const name = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  if (name !== 'mimetype') return false;
  const start = 30 + nameLength + extra;
  return new TextDecoder().decode(bytes.subarray(start, start + mime.length)) === mime;
}

/**
 * Reads a document with officeparser.
 * @param kind the file type (also the parser name in messages)
 * @param check for ZIP containers: what the entries must hold to be this type (e.g. `ppt/presentation.xml`)
 * @throws TrawlError PARSE_FAILED when the file is damaged, encrypted, not of this type or over a limit
 */
export async function readOffice(
  kind: OfficeKind,
  bytes: Uint8Array,
  ctx: PluginContext,
  check?: (entries: ZipEntry[]) => string | undefined,
): Promise<OfficeDocument> {
  if (kind !== 'rtf') {
    const entries = checkZip(bytes, kind);
    const wrong = check?.(entries);
    if (wrong) throw new TrawlError('PARSE_FAILED', `[${kind}] ${wrong}`);
  }
  const { parseOffice } = await import('officeparser');
  let html: string;
  let meta: Record<string, unknown>;
  const warnings: string[] = [];
  try {
    const ast = await parseOffice(Buffer.from(bytes), {
      fileType: kind,
      extractAttachments: false,
      ocr: false,
      ignoreComments: true,
      abortSignal: ctx.signal,
      decompressionLimits: { maxUncompressedBytes: ZIP_LIMITS.totalBytes, maxZipEntries: ZIP_LIMITS.entries },
    });
    // The type is always given, so a failed auto-detection (its `file-type` import fails inside a
    // compiled binary) is not worth a warning.
    for (const w of (ast as { warnings?: { code?: string; message?: string }[] }).warnings ?? []) {
      if (w.message && w.code !== 'FILE_TYPE_DETECTION_FAILED') warnings.push(w.message);
    }
    // The body only (no stylesheet, script or meta tags); the title goes in from the metadata below.
    html = String((await ast.to('html', { htmlConfig: { standalone: false } } as never)).value ?? '');
    meta = (ast.metadata ?? {}) as Record<string, unknown>;
  } catch (e) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? e;
    const type = String((e as { type?: unknown }).type ?? (e as { code?: unknown }).code ?? '');
    if (ENCRYPTED.has(type)) throw new TrawlError('PARSE_FAILED', `[${kind}] the document is password-protected (encrypted); Trawl cannot read it`, { cause: e });
    throw new TrawlError('PARSE_FAILED', `[${kind}] the document could not be read: ${(e as Error).message ?? String(e)}`, { cause: e });
  }
  if (warnings.length) ctx.log.debug({ warnings: warnings.length }, 'officeparser warnings');
  const metadata = metadataOf(meta);
  const title = typeof metadata.title === 'string' ? `<title>${escapeHtml(metadata.title)}</title>` : '';
  const lang = typeof metadata.language === 'string' ? ` lang="${escapeHtml(metadata.language)}"` : '';
  return {
    html: `<!DOCTYPE html><html${lang}><head><meta charset="utf-8">${title}</head><body>${html}</body></html>`,
    metadata,
    ...(warnings.length ? { warning: `[${kind}] ${warnings.slice(0, 3).join('; ')}` } : {}),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Document properties as Trawl metadata keys (as parsers/office/core-props.ts names them). */
function metadataOf(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const lang = (v: unknown) => (typeof v === 'string' && /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i.test(v.trim()) ? v.trim() : undefined);
  const date = (v: unknown) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : undefined);
  const pairs: [string, unknown][] = [
    ['title', str(meta.title)],
    ['author', str(meta.author)],
    ['description', str(meta.description) ?? str(meta.subject)],
    ['keywords', str(meta.keywords)],
    ['language', lang(meta.language)],
    ['creationDate', date(meta.created)],
    ['modifiedDate', date(meta.modified)],
  ];
  for (const [k, v] of pairs) if (v !== undefined) out[k] = v;
  return out;
}
