/** Contract cases of the `video` format (formats/video.ts): a clip made by ffmpeg, served on 127.0.0.1. */
import { afterAll, expect } from 'bun:test';
import { rmSync } from 'node:fs';
import plugin from '../../../formats/video.ts';
import { testFormat } from '../suites/format.ts';
import { serveFixtures } from '../../helpers/fixture-site.ts';
import { makeMedia } from '../../fixtures/media/make.ts';

const media = makeMedia(1);
const site = serveFixtures({ '/clip.mp4': { body: media.mp4, headers: { 'content-type': 'video/mp4' } } });
afterAll(() => {
  site.stop();
  rmSync(media.dir, { recursive: true, force: true });
});

const SIGNED_MP4 = /^http:\/\/127\.0\.0\.1:3002\/v2\/blobs\/[0-9a-f]{32}\.mp4\?expires=\d+&signature=[\w-]+$/;

testFormat(plugin, [
  { name: '<video><source>: the file behind a signed URL', page: `<video><source src="${site.url('/clip.mp4')}"></video>`, expect: (doc) => expect(doc.video).toMatch(SIGNED_MP4) },
  { name: 'og:video', page: `<meta property="og:video:url" content="${site.url('/clip.mp4')}">`, expect: (doc) => expect(doc.video).toMatch(SIGNED_MP4) },
  { name: 'no video: null and a warning', page: '<audio src="/a.mp3"></audio>', expect: (doc) => {
    expect(doc.video).toBeNull();
    expect(doc.warning).toContain('[video]');
  } },
  { name: 'a fetch that fails: null and a warning naming the status', page: `<video src="${site.url('/missing.mp4')}"></video>`, expect: (doc) => {
    expect(doc.video).toBeNull();
    expect(doc.warning).toContain('HTTP 404');
  } },
]);
