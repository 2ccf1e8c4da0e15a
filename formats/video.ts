/**
 * The `video` format (compat.md §2.1): the page's video file as it is served. The media is the
 * scraped file itself when it is a video, else the page's `<video>` sources and `og:video` tags
 * (formats/media/find.ts), fetched through Trawl's guarded fetch with the `media.maxBytes` cap. The
 * file is stored in the blob store and the document carries a signed URL that expires after 1 hour
 * (core/blob-signing.ts), so documents with it are never cached. No video or a fetch over the cap:
 * `video` null and a warning; the scrape itself succeeds.
 */
import { defineFormat } from '../core/plugin.ts';
import { SIGNED_URL_TTL_MS, signBlobUrl } from '../core/blob-signing.ts';
import { pageMedia } from './media/fetch.ts';

export default defineFormat({
  name: 'video',
  content: 'binary',
  blobs: true,
  needsParser: false,
  cacheable: false,
  allowedIn: ['scrape', 'batch', 'crawl', 'search', 'v1'],
  async produce(input, _options, ctx) {
    const media = await pageMedia(input, ['video'], ctx, 'video');
    if (!media.file) return { video: null, warning: media.warning };
    // Served as video even when the site labelled it loosely (octet-stream), so it needs the signature.
    const type = media.file.contentType.startsWith('video/') ? media.file.contentType : 'video/mp4';
    const key = await ctx.blobs.put(media.file.bytes, type, SIGNED_URL_TTL_MS + 60_000);
    return { video: signBlobUrl(ctx.blobs.url(key), key, ctx.config.blobSecret) };
  },
});
