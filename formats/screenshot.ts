/**
 * The `screenshot` format (compat.md §2.1): a capture of the page, taken by the browser engine after
 * the actions ran and stored in the blob store; the document carries its URL (`/v2/blobs/{key}`).
 * Options: `fullPage` (default false: the viewport only), `quality` 1–100 (JPEG; PNG without it),
 * `viewport {width ≤ 7680, height ≤ 4320}`. The format requires the `screenshot` engine feature, so a
 * request with it always runs in the browser, and asks the engine for a `screenshot` capture. Its URL
 * expires with the blob (`blobs`), so a cached document lives no longer.
 */
import { Type } from '@sinclair/typebox';
import { defineFormat } from '../core/plugin.ts';

interface ScreenshotOptions {
  fullPage?: boolean;
  quality?: number;
  viewport?: { width: number; height: number };
}

export default defineFormat<ScreenshotOptions>({
  name: 'screenshot',
  content: 'binary',
  requires: ['screenshot'],
  blobs: true,
  capture: (o) => ({ kind: 'screenshot', fullPage: o.fullPage === true, quality: o.quality, viewport: o.viewport }),
  options: Type.Object(
    {
      fullPage: Type.Optional(Type.Boolean({ default: false })),
      quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      viewport: Type.Optional(
        Type.Object({ width: Type.Integer({ minimum: 1, maximum: 7680 }), height: Type.Integer({ minimum: 1, maximum: 4320 }) }),
      ),
    },
    { additionalProperties: false },
  ),
  // A document that is not a page (a PDF opened directly) has no capture: the field is left out.
  produce: (input) => {
    const url = input.response.captures?.screenshot;
    return typeof url === 'string' ? { screenshot: url } : {};
  },
});
