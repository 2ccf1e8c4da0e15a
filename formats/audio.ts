/**
 * The `audio` format (compat.md §2.1; interface.md formats): the page's audio as an MP3. The media is
 * the scraped file itself when it is audio or video, else the page's `<audio>` (then `<video>`)
 * sources and `og:audio` / `og:video` tags (formats/media/find.ts), fetched through Trawl's guarded
 * fetch with the `media.maxBytes` cap; Debian's ffmpeg converts it in a bounded subprocess
 * (formats/media/ffmpeg.ts). The MP3 is stored in the blob store and the document carries a signed
 * URL that expires after 1 hour (core/blob-signing.ts), so documents with it are never cached. No
 * media, a fetch over the cap, or an ffmpeg failure or timeout: `audio` null and a warning; the scrape
 * itself succeeds.
 */
import { defineFormat } from '../core/plugin.ts';
import { SIGNED_URL_TTL_MS, signBlobUrl } from '../core/blob-signing.ts';
import { pageMedia } from './media/fetch.ts';

export default defineFormat({
  name: 'audio',
  content: 'binary',
  blobs: true,
  needsParser: false,
  cacheable: false,
  allowedIn: ['scrape', 'batch', 'crawl', 'search', 'v1'],
  async produce(input, _options, ctx) {
    const media = await pageMedia(input, ['audio', 'video'], ctx, 'audio');
    if (!media.file) return { audio: null, warning: media.warning };
    const { toMp3, FfmpegFailure } = await import('./media/ffmpeg.ts');
    const started = performance.now();
    let mp3: Uint8Array;
    try {
      mp3 = await toMp3(media.file.bytes, { path: ctx.config.media.ffmpegPath, timeoutMs: ctx.config.media.ffmpegTimeoutMs, maxBytes: ctx.config.media.maxBytes, signal: ctx.signal });
    } catch (e) {
      if (!(e instanceof FfmpegFailure)) throw e;
      ctx.log.warn({ err: e.message, media: media.file.url }, 'audio extraction failed');
      return { audio: null, warning: `[audio] the audio of ${media.file.url} could not be extracted: ${e.message}` };
    }
    ctx.log.debug({ ms: Math.round(performance.now() - started), bytes: mp3.byteLength }, 'audio extracted');
    const key = await ctx.blobs.put(mp3, 'audio/mpeg', SIGNED_URL_TTL_MS + 60_000);
    return { audio: signBlobUrl(ctx.blobs.url(key), key, ctx.config.blobSecret) };
  },
});
