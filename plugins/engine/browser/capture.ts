/**
 * Screenshots and printed PDFs of the current page, stored in the blob store (interface.md "Action
 * types" screenshot and pdf; compat.md §2.1 screenshot format). A screenshot is PNG, or JPEG when
 * `quality` is given; `viewport` resizes the page for that capture only; `fullPage` captures the whole
 * document height, capped at 16384 px (Chromium's largest texture) so endless pages stay bounded.
 */
import type { Page, PaperFormat } from 'puppeteer-core';
import type { BlobStore } from '../../../core/blobs.ts';

/** How long stored screenshots and PDFs stay readable, ms (job results live 24 h: interface.md "Limits"). */
export const BLOB_TTL_MS = 24 * 60 * 60 * 1000;
/** Tallest full-page capture, px. */
export const MAX_CAPTURE_HEIGHT = 16_384;

export interface ScreenshotOptions {
  fullPage?: boolean;
  /** 1..100; set → JPEG. */
  quality?: number;
  viewport?: { width: number; height: number };
}

/**
 * Captures the page and stores the image.
 * @returns the blob URL (`<base>/v2/blobs/<key>`)
 */
export async function screenshotToBlob(page: Page, opts: ScreenshotOptions, blobs: BlobStore): Promise<string> {
  const bytes = await screenshot(page, opts);
  const key = await blobs.put(bytes, opts.quality ? 'image/jpeg' : 'image/png', BLOB_TTL_MS);
  return blobs.url(key);
}

/** Captures the page as PNG/JPEG bytes (see the file header for the rules). */
export async function screenshot(page: Page, opts: ScreenshotOptions): Promise<Uint8Array> {
  const before = page.viewport();
  if (opts.viewport) {
    await page.setViewport({ ...(before ?? {}), width: opts.viewport.width, height: opts.viewport.height });
  }
  try {
    const type = opts.quality ? 'jpeg' : 'png';
    const base = { type, ...(opts.quality ? { quality: opts.quality } : {}), optimizeForSpeed: true } as const;
    if (!opts.fullPage) return await page.screenshot(base);
    const size = await page.evaluate(() => ({
      width: document.documentElement.clientWidth || window.innerWidth,
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    if (size.height <= MAX_CAPTURE_HEIGHT) return await page.screenshot({ ...base, fullPage: true });
    return await page.screenshot({
      ...base,
      clip: { x: 0, y: 0, width: size.width, height: MAX_CAPTURE_HEIGHT },
      captureBeyondViewport: true,
    });
  } finally {
    if (opts.viewport && before) await page.setViewport(before).catch(() => undefined);
  }
}

export interface PrintOptions {
  /** A0..A6, Letter, Legal, Tabloid, Ledger; default Letter. */
  format?: string;
  landscape?: boolean;
  /** 0 < scale ≤ 2 (below 0.1 prints at 0.1); default 1. */
  scale?: number;
}

/**
 * Prints the page to PDF (backgrounds included) and stores it.
 * @param timeoutMs time allowed for printing, ms
 * @returns the blob URL
 */
export async function pdfToBlob(page: Page, opts: PrintOptions, blobs: BlobStore, timeoutMs: number): Promise<string> {
  const bytes = await page.pdf({
    format: (opts.format ?? 'Letter').toLowerCase() as PaperFormat,
    landscape: opts.landscape ?? false,
    scale: Math.min(2, Math.max(0.1, opts.scale ?? 1)), // Chromium accepts 0.1..2
    printBackground: true,
    timeout: Math.max(1_000, timeoutMs),
  });
  const key = await blobs.put(bytes, 'application/pdf', BLOB_TTL_MS);
  return blobs.url(key);
}
