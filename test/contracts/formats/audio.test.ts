/**
 * Contract cases of the `audio` format (formats/audio.ts): media made by ffmpeg, served on 127.0.0.1
 * and fetched through the guarded fetch; the bad cases (no media, over the cap, a hanging ffmpeg,
 * /v2/parse) end in a warning or a 400, never an error.
 */
import { afterAll, expect, test } from 'bun:test';
import { Registry } from '../../../core/registry.ts';
import { resolveScrapeOptions } from '../../../core/pipeline/scrape-options.ts';
import { formatPlugins } from '../../../core/pipeline/scrape.ts';
import { rmSync } from 'node:fs';
import plugin from '../../../formats/audio.ts';
import { testFormat } from '../suites/format.ts';
import { serveFixtures } from '../../helpers/fixture-site.ts';
import { makeMedia } from '../../fixtures/media/make.ts';

const media = makeMedia(2);
const site = serveFixtures({
  '/tone.wav': { body: media.wav, headers: { 'content-type': 'audio/wav' } },
  '/clip.mp4': { body: media.mp4, headers: { 'content-type': 'video/mp4' } },
});
afterAll(() => {
  site.stop();
  rmSync(media.dir, { recursive: true, force: true });
});

const SIGNED_MP3 = /^http:\/\/127\.0\.0\.1:3002\/v2\/blobs\/[0-9a-f]{32}\.mp3\?expires=\d+&signature=[\w-]+$/;
const page = (body: string) => `<html><head><title>Episode</title></head><body>${body}</body></html>`;

testFormat(plugin, [
  { name: '<audio src>: an MP3 behind a signed URL', page: page(`<audio src="${site.url('/tone.wav')}"></audio>`), expect: (doc) => expect(doc.audio).toMatch(SIGNED_MP3) },
  { name: 'og:audio works too', page: `<html><head><meta property="og:audio" content="${site.url('/tone.wav')}"></head><body></body></html>`, expect: (doc) => expect(doc.audio).toMatch(SIGNED_MP3) },
  { name: 'the sound of a <video>', page: page(`<video><source src="${site.url('/clip.mp4')}" type="video/mp4"></video>`), expect: (doc) => expect(doc.audio).toMatch(SIGNED_MP3) },
  { name: 'the scraped file itself is audio', bytes: media.wav, contentType: 'audio/wav', expect: (doc) => expect(doc.audio).toMatch(SIGNED_MP3) },
  { name: 'no media: null and a warning', page: page('<p>Transcript only.</p>'), expect: (doc) => {
    expect(doc.audio).toBeNull();
    expect(doc.warning).toContain('[audio] the page has no audio');
  } },
  { name: 'media over the size cap: null and a warning naming the cap', page: page(`<audio src="${site.url('/tone.wav')}"></audio>`), config: { TRAWL_MEDIA_MAX_BYTES: '10000' }, expect: (doc) => {
    expect(doc.audio).toBeNull();
    expect(doc.warning).toContain('10000');
  } },
  { name: 'an ffmpeg that hangs is killed at its time limit: null and a warning', page: page(`<audio src="${site.url('/tone.wav')}"></audio>`), config: { TRAWL_FFMPEG_PATH: media.hangingFfmpeg, TRAWL_FFMPEG_TIMEOUT_MS: '1000' }, expect: (doc) => {
    expect(doc.audio).toBeNull();
    expect(doc.warning).toContain('did not finish within 1000 ms');
  } },
  { name: 'a missing ffmpeg: null and a warning', page: page(`<audio src="${site.url('/tone.wav')}"></audio>`), config: { TRAWL_FFMPEG_PATH: '/nonexistent/ffmpeg' }, expect: (doc) => {
    expect(doc.audio).toBeNull();
    expect(doc.warning).toContain('could not start');
  } },
  { name: 'not available in /v2/parse', surface: 'parse', invalid: /Format "audio" is not available in \/v2\/parse/ },
]);

test('forces storeInCache off (its link expires in 1 hour)', async () => {
  const options = resolveScrapeOptions({ formats: ['markdown', 'audio'], storeInCache: true }, await formatPlugins(new Registry()));
  expect(options.storeInCache).toBe(false);
});
