/**
 * The formats' captures (core/plugin.ts `EngineCapture`): what the requested formats need taken from
 * the live page after the actions ran. A `screenshot` is stored in the blob store (capture.ts) and
 * answered by its URL; an `evaluate` runs the format's page script and answers its JSON value. The
 * engine knows capture kinds, never format names: answers are keyed as the request keyed them.
 */
import type { Page } from 'puppeteer-core';
import type { EngineCapture, PluginContext } from '../../../core/plugin.ts';
import { screenshotToBlob } from './capture.ts';

/**
 * Takes every capture, in request order.
 * @returns answers by the request's keys; an `evaluate` whose script throws answers undefined (the
 *          format reports it as a warning), a failed screenshot throws as before
 */
export async function takeCaptures(page: Page, captures: Record<string, EngineCapture>, ctx: PluginContext): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, capture] of Object.entries(captures)) {
    if (capture.kind === 'screenshot') {
      out[key] = await screenshotToBlob(page, { fullPage: capture.fullPage === true, quality: capture.quality, viewport: capture.viewport }, ctx.blobs);
    } else if (capture.kind === 'evaluate') {
      out[key] = await page.evaluate(`(${capture.script})()`).catch((err: unknown) => {
        ctx.log.warn({ err, capture: key }, 'a page script of a format failed');
        return undefined;
      });
    }
  }
  return out;
}
