/**
 * Non-HTML main documents in the browser engine (a PDF, an office file, any download): their bytes.
 * The headless shell has no PDF viewer, and downloads are denied, so navigating to such a document
 * ends in `net::ERR_ABORTED` with the document's response recorded; the full browser shows a PDF in
 * its viewer, whose response body is the viewer's stub. Either way the bytes are loaded once more by
 * DevTools' `Network.loadNetworkResource` in the page's own context: the same network stack, so the
 * request goes through the context's guarding proxy (the SSRF guard and the byte cap on every
 * connection and redirect), and it is streamed over `IO.read` without running anything in the page.
 * When the browser refuses that (the full browser's PDF viewer frame), the page fetches its own URL.
 */
import type { CDPSession, HTTPResponse, Page } from 'puppeteer-core';
import { TrawlError } from '../../../core/errors.ts';
import type { PageState } from './page-setup.ts';

/** Content types the browser shows as a page (everything else is a document read as bytes). */
export const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** The response's content type without parameters, lower-cased (`text/html` when it has none). */
export function contentTypeOf(response: HTTPResponse | undefined): string {
  const header = response?.headers()['content-type'] ?? 'text/html';
  return header.split(';')[0]!.trim().toLowerCase() || 'text/html';
}

/**
 * Whether a failed navigation is a document the browser would not show (a download it denied): the
 * error is `net::ERR_ABORTED` and the main frame's response is there and is not HTML.
 */
export function isDocumentDownload(error: unknown, state: PageState): boolean {
  return /net::ERR_ABORTED/.test(String((error as Error)?.message ?? error)) && state.mainResponse !== undefined && !HTML_TYPES.has(contentTypeOf(state.mainResponse));
}

/**
 * The bytes of the main document `main` (a non-HTML response): the body the browser kept when it
 * showed the document (text, JSON, an image), else loaded again (a denied download, a PDF in the
 * viewer: see the header).
 * @param download the navigation ended as a denied download (no body was kept)
 * @param maxBytes most bytes read (`ResolvedConfig.maxFetchBytes`)
 * @throws TrawlError SCRAPE_CONTENT_TOO_LARGE past `maxBytes`; SCRAPE_SITE_ERROR when the document
 *         cannot be loaded again (the browser's error named)
 */
export async function documentBytes(page: Page, state: PageState, main: HTTPResponse, download: boolean, maxBytes: number): Promise<Uint8Array> {
  const kept = download ? undefined : await main.buffer().then((b) => new Uint8Array(b), () => undefined);
  const pdfStub = kept !== undefined && contentTypeOf(main) === 'application/pdf' && !startsWithPdf(kept);
  let bytes: Uint8Array;
  if (kept && !pdfStub) bytes = kept;
  else {
    const url = main.url();
    const loaded = await loadNetworkResource(state.cdp, url, maxBytes);
    if (loaded instanceof Uint8Array) bytes = loaded;
    // The full browser's PDF viewer frame refuses DevTools loads (ERR_BLOCKED_BY_CLIENT): the page,
    // showing that URL, fetches the file itself.
    else if (page.url() === url) bytes = await pageFetch(page, maxBytes);
    else throw new TrawlError('SCRAPE_SITE_ERROR', `[browser] could not load the document ${url}: ${loaded}`, { retryable: true });
  }
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

const startsWithPdf = (b: Uint8Array) => b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46; // %PDF

/** Loads `url` in the main frame's network context; the bytes, or the browser's error text. */
async function loadNetworkResource(cdp: CDPSession, url: string, maxBytes: number): Promise<Uint8Array | string> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { resource } = await cdp.send('Network.loadNetworkResource', {
    frameId: frameTree.frame.id,
    url,
    options: { disableCache: false, includeCredentials: true },
  });
  if (!resource.success || !resource.stream) return resource.netErrorName ?? `HTTP ${resource.httpStatusCode ?? 'error'}`;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const chunk = await cdp.send('IO.read', { handle: resource.stream, size: 1 << 20 });
      const bytes = chunk.base64Encoded ? Buffer.from(chunk.data, 'base64') : Buffer.from(chunk.data, 'utf8');
      size += bytes.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(bytes);
      if (chunk.eof) break;
    }
  } finally {
    await cdp.send('IO.close', { handle: resource.stream }).catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

/** The page fetches its own URL (credentials included) and hands the bytes back as base64. */
async function pageFetch(page: Page, maxBytes: number): Promise<Uint8Array> {
  const b64 = await page.evaluate(async (max: number) => {
    const r = await fetch(location.href, { credentials: 'include' });
    const buf = new Uint8Array(await r.arrayBuffer());
    if (buf.length > max) return null;
    let s = '';
    for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return btoa(s);
  }, maxBytes);
  if (b64 === null) throw tooLarge(maxBytes);
  return Uint8Array.from(Buffer.from(b64, 'base64'));
}

const tooLarge = (max: number) =>
  new TrawlError('SCRAPE_CONTENT_TOO_LARGE', `[browser] the document is larger than ${max} bytes, the most Trawl reads (TRAWL_MAX_FETCH_BYTES)`);
