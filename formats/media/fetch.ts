/**
 * Fetching a page's media for the audio and video formats through Trawl's own guarded fetch (the
 * fetch engine: SSRF guard on every redirect hop, the scrape's deadline, a byte cap), never through
 * ffmpeg's network code. The cap is the config's `media.maxBytes`.
 */
import type { EngineResponse, FormatInput, PluginContext } from '../../core/plugin.ts';
import { TrawlError } from '../../core/errors.ts';

/** A media file: its bytes, content type and final URL. */
export interface MediaFile {
  bytes: Uint8Array;
  contentType: string;
  url: string;
}

/** Whether a content type is audio or video. */
export function isMediaType(contentType: string): boolean {
  return contentType.startsWith('audio/') || contentType.startsWith('video/');
}

/**
 * Fetches one media URL.
 * @throws TrawlError from the fetch engine (SCRAPE_CONTENT_TOO_LARGE over the cap, UNSAFE_TARGET,
 *         SCRAPE_TIMEOUT ...) or SCRAPE_SITE_ERROR for a non-2xx answer
 */
export async function fetchMedia(url: string, input: FormatInput, ctx: PluginContext): Promise<MediaFile> {
  const { default: engine } = await import('../../plugins/engine/fetch.ts');
  const config = { ...ctx.config, maxFetchBytes: ctx.config.media.maxBytes };
  const res: EngineResponse = await engine.fetch(
    {
      url,
      headers: { accept: 'audio/*,video/*;q=0.9,*/*;q=0.5' },
      options: input.options,
      timeoutMs: Math.max(1, ctx.deadline - Date.now()),
      targets: ctx.config.targets,
    },
    { ...ctx, config },
  );
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new TrawlError('SCRAPE_SITE_ERROR', `the media file ${url} answered HTTP ${res.statusCode}`);
  }
  return { bytes: res.body, contentType: res.contentType, url: res.url };
}

/** Most media URLs tried per page (the first that answers wins). */
const MAX_TRIES = 3;

/**
 * The page's media file of the first kind in `kinds` that has one: the scraped response itself when it
 * is audio or video, else the page's media URLs (formats/media/find.ts) fetched in order.
 * @returns the file, or a warning saying why there is none (no media, over the cap, fetch failed)
 */
export async function pageMedia(input: FormatInput, kinds: ('audio' | 'video')[], ctx: PluginContext, format: string): Promise<{ file?: MediaFile; warning?: string }> {
  const own = input.response;
  if (isMediaType(own.contentType) && kinds.some((k) => own.contentType.startsWith(`${k}/`))) {
    return { file: { bytes: own.body, contentType: own.contentType, url: own.url } };
  }
  const { findMedia } = await import('./find.ts');
  const found = findMedia(input.rawHtml() ?? '', input.url);
  const urls = kinds.flatMap((k) => found[k]);
  if (urls.length === 0) return { warning: `[${format}] the page has no ${kinds.join(' or ')} (no <audio>/<video> element or og:${kinds[0]} tag).` };
  const failures: string[] = [];
  for (const url of urls.slice(0, MAX_TRIES)) {
    try {
      return { file: await fetchMedia(url, input, ctx) };
    } catch (e) {
      failures.push(TrawlError.wrap(e).message);
    }
  }
  return { warning: `[${format}] the page's media could not be fetched: ${failures.join('; ')}` };
}
