/**
 * Helpers for the parse tests: raw multipart/form-data bodies built by hand (so part order, missing
 * file names and broken framing can be tested exactly), an upload call against a test Trawl, and
 * small PDFs made with mupdf.
 */
import type { TestTrawl } from '../helpers/trawl.ts';
import { makePdf, words } from '../parsers/make-pdf.ts';

export interface Part {
  name: string;
  /** Present for file parts. */
  filename?: string;
  contentType?: string;
  body: string | Uint8Array;
}

/** A multipart/form-data body with the parts in the given order. */
export function multipart(parts: Part[]): { body: Uint8Array; contentType: string } {
  const boundary = `----trawl-test-${crypto.randomUUID()}`;
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(enc.encode(`${head}\r\n`), typeof p.body === 'string' ? enc.encode(p.body) : p.body, enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Reply {
  status: number;
  body: any;
  text: string;
}

/** POSTs a raw body to /v2/parse. */
export async function postParse(trawl: TestTrawl, body: Uint8Array | string, contentType: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${trawl.base}/v2/parse`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body: body as BodyInit });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/** Uploads one file (options part first, as the SDK sends it, unless `optionsLast`). */
export function upload(
  trawl: TestTrawl,
  file: { filename: string; contentType?: string; body: string | Uint8Array },
  options?: unknown,
  extra: { optionsLast?: boolean; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const filePart: Part = { name: 'file', ...file };
  const parts: Part[] = options === undefined ? [filePart] : [{ name: 'options', body: typeof options === 'string' ? options : JSON.stringify(options) }, filePart];
  if (extra.optionsLast) parts.reverse();
  const { body, contentType } = multipart(parts);
  return postParse(trawl, body, contentType, extra.headers);
}

/** A PDF of `pages` pages: a heading and numbered lines on each, text that names its page. */
export function samplePdf(pages: number, title = 'Sample report'): Uint8Array {
  return makePdf(
    Array.from({ length: pages }, (_, p) => ({
      items: [
        { x: 72, y: 90, size: 20, font: 'Helvetica-Bold' as const, text: `Chapter ${p + 1}` },
        ...Array.from({ length: 12 }, (_, i) => ({ x: 72, y: 130 + i * 18, size: 11, text: `Page ${p + 1} line ${i + 1}: ${words(8, p * 50 + i).join(' ')}` })),
      ],
    })),
    { title },
  );
}
