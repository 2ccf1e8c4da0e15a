/**
 * The parse pipeline (compat.md §14): an uploaded file in, one Document out. The upload is dressed
 * as an engine response (status 200, its content type, a synthetic `file://upload/<name>` URL) and
 * goes through the same parse-and-format step as a fetched URL (`buildDocument` in scrape.ts), so a
 * PDF, DOCX or HTML file gives the same document whether it was scraped or uploaded. No HTTP or queue
 * code here: the parse job (core/jobs/parse.ts) and the route's early checks call it.
 */
import type { EngineResponse, ParserPlugin } from '../plugin.ts';
import type { ScrapeOptions } from '../scrape/options.ts';
import { TrawlError } from '../errors.ts';
import { charsetFromContentType, decodeBody, isTextual } from '../net/charset.ts';
import { looksLikeHtmlBytes } from '../../parsers/html.ts';
import { selectParser } from './select.ts';
import { buildDocument, formatPlugins, runContext, type Document, type ScrapeDeps, type ScrapeRequest } from './scrape.ts';
import { redactDocument } from '../privacy/document.ts';
import { fieldContents } from '../scrape/formats.ts';

/** An uploaded file. */
export interface UploadedFile {
  bytes: Uint8Array;
  /** The name the client gave (no directories). */
  filename: string;
  /** The part's Content-Type as sent (may carry `charset=`; empty when the client sent none). */
  contentType: string;
}

/** Parser that may stand in for itself as base64 when the request leaves it out (interface.md `parsers`). */
const BASE64_WHEN_OFF = 'pdf';

/** The synthetic URL of an upload, used as `metadata.sourceURL` and `metadata.url`: `file://upload/<name>`. */
export function uploadUrl(filename: string): string {
  return `file://upload/${encodeURIComponent(filename)}`;
}

/** Content type without parameters, lower case; '' when none was sent. */
function bareType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** Whether a file names its own charset in its first 2 KB (`<meta charset>`, an XML declaration). */
function declaresCharset(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  return /<meta[^>]+charset\s*=|<\?xml[^>]+encoding\s*=/i.test(head);
}

/**
 * How to decode an uploaded text file, or undefined to leave it to the parser (the text and CSV
 * parsers try UTF-8, then Windows-1252). Bun gives every `text/*` part `charset=utf-8` whether or not
 * the client sent one, so only another charset on the part counts as the client's word. HTML: a BOM,
 * then the file's own `<meta charset>`, then such a charset, then UTF-8.
 */
function uploadText(file: UploadedFile, type: string): string | undefined {
  const charset = charsetFromContentType(file.contentType);
  const partCharset = charset && charset !== 'utf-8' && charset !== 'utf8' ? file.contentType : undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml' || looksLikeHtmlBytes(file.bytes)) {
    return decodeBody(file.bytes, declaresCharset(file.bytes) ? undefined : partCharset).text;
  }
  return isTextual(type) && partCharset ? decodeBody(file.bytes, partCharset).text : undefined;
}

/** The upload as the engine response the pipeline expects (status 200, the part's content type). */
export function uploadResponse(file: UploadedFile, url: string): EngineResponse {
  const type = bareType(file.contentType) || 'application/octet-stream';
  return {
    url,
    statusCode: 200,
    headers: { 'content-type': file.contentType || type },
    contentType: type,
    body: file.bytes,
    text: uploadText(file, type),
    engine: 'upload',
  };
}

/**
 * The parser an upload goes to, or why it has none (compat.md §14: unsupported types are a 400).
 * A file whose parser is opt-in and not in `parsers` is refused, except a PDF: with `parsers: []` it
 * comes back base64-encoded (interface.md `parsers`). So an image is OCR'd only with
 * `parsers: ["image"]`, and is UNSUPPORTED_FILE_TYPE without it (as the SDK's tests expect).
 * @param parsers every registered parser plugin
 * @throws TrawlError UNSUPPORTED_FILE_TYPE (400) naming the file, its type and what is supported
 */
export function uploadParser(parsers: readonly ParserPlugin[], file: UploadedFile, options: Pick<ScrapeOptions, 'parsers'>): ParserPlugin {
  const type = bareType(file.contentType) || 'application/octet-stream';
  const parser = selectParser(parsers, { bytes: file.bytes, contentType: type, url: uploadUrl(file.filename), filename: file.filename });
  const what = `"${file.filename}" (${file.contentType || 'no content type'})`;
  if (!parser) {
    const always = parsers.filter((p) => !p.optIn || p.name === BASE64_WHEN_OFF).flatMap((p) => p.accepts.ext);
    const optIn = parsers.filter((p) => p.optIn && p.name !== BASE64_WHEN_OFF);
    throw new TrawlError(
      'UNSUPPORTED_FILE_TYPE',
      `Unsupported file type: ${what} is not a format Trawl can parse. Supported: ${always.join(', ')}` +
        optIn.map((p) => `; with "parsers": ["${p.name}"] also ${p.accepts.ext.join(', ')}`).join('') + '.',
    );
  }
  if (parser.optIn && parser.name !== BASE64_WHEN_OFF && !options.parsers.some((p) => p.type === parser.name)) {
    throw new TrawlError(
      'UNSUPPORTED_FILE_TYPE',
      `Unsupported file type: ${what} is read by the "${parser.name}" parser, which this request does not enable. ` +
        `Add it to the options, e.g. "parsers": ["${parser.name}"].`,
    );
  }
  return parser;
}

/**
 * Parses one upload into a Document (the deadline is `options.timeout`).
 * @param req  ids, the synthetic URL (as `url` and `sourceURL`) and resolved options
 * @param file the uploaded bytes, name and content type
 * @throws TrawlError UNSUPPORTED_FILE_TYPE; the parser's errors (PARSE_FAILED, SCRAPE_UNSUPPORTED_FILE_ERROR
 *         for a password-protected PDF ...); SCRAPE_TIMEOUT at the deadline
 */
export async function runParse(req: ScrapeRequest, file: UploadedFile, deps: ScrapeDeps, signal?: AbortSignal): Promise<Document> {
  uploadParser(await deps.registry.all('parser'), file, req.options);
  const run = runContext(req, deps, signal, `Parsing "${file.filename}"`);
  try {
    return redactDocument(await buildDocument(uploadResponse(file, req.url), req, deps, run, file.filename), req.options.redactPII, fieldContents(await formatPlugins(deps.registry)));
  } finally {
    run.end();
  }
}
